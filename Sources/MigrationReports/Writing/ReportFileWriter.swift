#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One report file while a report is composed: bytes in memory, or a temporary file beside its
/// final name (mode 0600, written in blocks) renamed into place only when the whole report
/// succeeded — so a reader sees either the old file or the new one, never half of one.
final class ReportFileWriter {
  /// The file's name in the report.
  let name: String
  /// Where its bytes go.
  var output: ReportOutput
  private let path: String?
  private var descriptor: Int32?

  private init(name: String, output: ReportOutput, path: String?, descriptor: Int32?) {
    self.name = name
    self.output = output
    self.path = path
    self.descriptor = descriptor
  }

  /// A file kept in memory.
  static func memory(_ name: String) -> ReportFileWriter {
    ReportFileWriter(name: name, output: ReportOutput(), path: nil, descriptor: nil)
  }

  /// A file written to `<directory>/<name>.tmp`, renamed to `<directory>/<name>` by
  /// ``commit()``.
  static func file(_ name: String, in directory: String) throws(ReportError) -> ReportFileWriter {
    let path = ReportFileSystem.join(directory, name)
    let descriptor = open(path + ".tmp", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw ReportFileSystem.writeError(path, errno) }
    return ReportFileWriter(
      name: name, output: ReportOutput(descriptor: descriptor), path: path,
      descriptor: descriptor)
  }

  /// The bytes of a file kept in memory.
  var bytes: [UInt8] { output.bytes }

  /// Writes everything this file holds into `other`: the bytes in memory, or the temporary
  /// file read back from its start in blocks.
  func copy(into other: inout ReportOutput) throws(ReportError) {
    guard let descriptor, let path else {
      other.write(output.bytes)
      return
    }
    output.flush()
    if let failure = output.failure { throw ReportFileSystem.writeError(path, failure) }
    var block = [UInt8](repeating: 0, count: ReportOutput.blockSize)
    var offset: off_t = 0
    while true {
      let count = block.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, $0.count, offset)
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw ReportFileSystem.writeError(path, errno)
      }
      if count == 0 { return }
      other.write(Array(block[0..<count]))
      offset += off_t(count)
    }
  }

  /// Flushes, closes and renames the temporary file into place (nothing for memory).
  func commit() throws(ReportError) {
    guard let descriptor, let path else { return }
    self.descriptor = nil
    output.flush()
    var failure = output.failure
    if close(descriptor) != 0, failure == nil { failure = errno }
    if failure == nil, rename(path + ".tmp", path) != 0 { failure = errno }
    if let failure {
      unlink(path + ".tmp")
      throw ReportFileSystem.writeError(path, failure)
    }
  }

  /// Closes and removes the temporary file (nothing for memory).
  func discard() {
    guard let descriptor, let path else { return }
    self.descriptor = nil
    close(descriptor)
    unlink(path + ".tmp")
  }

  deinit {
    discard()
  }
}
