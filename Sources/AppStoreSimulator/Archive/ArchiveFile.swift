#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One file of a generated archive while it is written: a hidden temporary file beside its final
/// name, filled in blocks, renamed into place by ``commit()`` — so a reader of the folder sees
/// the old file or the whole new one, never half of one, and memory holds one block, not the
/// file.
final class ArchiveFile {
  /// The final path.
  let path: String
  private let temporaryPath: String
  private var descriptor: Int32
  private var buffer: [UInt8] = []
  private static let blockSize = 1 << 20

  /// Creates (or truncates) the temporary file of `name` in `directory`.
  ///
  /// - Throws: ``ArchiveFileError`` when it cannot be created.
  init(_ name: String, in directory: String) throws(ArchiveFileError) {
    path = "\(directory)/\(name)"
    temporaryPath = "\(directory)/.\(name).partial"
    descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw ArchiveFileError(path: path, code: errno) }
    buffer.reserveCapacity(Self.blockSize)
  }

  /// Appends bytes.
  func write(_ bytes: some Sequence<UInt8>) throws(ArchiveFileError) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.blockSize { try flush() }
  }

  /// Appends bytes; a block or more goes to the file straight, without a copy into the buffer.
  func write(_ bytes: [UInt8]) throws(ArchiveFileError) {
    guard bytes.count >= Self.blockSize else {
      buffer.append(contentsOf: bytes)
      if buffer.count >= Self.blockSize { try flush() }
      return
    }
    try flush()
    if let code = bytes.withUnsafeBytes(writeAll) { throw ArchiveFileError(path: path, code: code) }
  }

  /// Appends text as UTF-8.
  func write(_ text: String) throws(ArchiveFileError) {
    try write(text.utf8)
  }

  /// Appends the whole content of another archive file, which is removed (used to join a
  /// section written aside, such as `world.json`'s accounts, after the section before it).
  func append(contentsOf other: ArchiveFile) throws(ArchiveFileError) {
    try other.flush()
    let source = open(other.temporaryPath, O_RDONLY | O_CLOEXEC)
    guard source >= 0 else { throw ArchiveFileError(path: other.path, code: errno) }
    defer {
      close(source)
      other.discard()
    }
    var block = [UInt8](repeating: 0, count: Self.blockSize)
    while true {
      let count = block.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw ArchiveFileError(path: other.path, code: errno)
      }
      if count == 0 { return }
      try write(block[0..<count])
    }
  }

  /// Writes the buffered bytes to the temporary file.
  func flush() throws(ArchiveFileError) {
    if let code = buffer.withUnsafeBytes(writeAll) {
      throw ArchiveFileError(path: path, code: code)
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes all of `bytes`; the `errno` of a failure, else `nil`.
  private func writeAll(_ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return nil
  }

  /// Flushes, closes and renames the temporary file to the final name.
  func commit() throws(ArchiveFileError) {
    try flush()
    let closed = close(descriptor)
    descriptor = -1
    guard closed == 0 else { throw ArchiveFileError(path: path, code: errno) }
    guard rename(temporaryPath, path) == 0 else { throw ArchiveFileError(path: path, code: errno) }
  }

  /// Closes and removes the temporary file; the final file, if any, is left as it was.
  func discard() {
    if descriptor >= 0 { close(descriptor) }
    descriptor = -1
    unlink(temporaryPath)
  }

  deinit {
    if descriptor >= 0 { discard() }
  }
}
