#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file one line at a time through a fixed-size buffer, so memory stays flat however
/// large the file is. A line longer than the limit is not held: it is skipped to its end and
/// reported with its first bytes and its length, so a 100 MB line costs no more memory than a
/// short one.
final class LineReader {
  /// One line, valid until the next call to ``next()``.
  struct Line {
    /// The line's bytes without the line terminator (`\n` or `\r\n`); for a line that was too
    /// long, only its first bytes.
    var bytes: UnsafeRawBufferPointer
    /// The 1-based line number.
    var number: Int
    /// The byte offset of the line's first byte in the file.
    var offset: Int64
    /// The full length of the line (larger than `bytes.count` when it was too long).
    var length: Int
    /// Whether the line exceeded the maximum and was skipped.
    var isTooLong: Bool
  }

  private let descriptor: Int32
  private let chunkSize: Int
  private let maximumLineLength: Int
  private var buffer: UnsafeMutableRawBufferPointer
  /// Unconsumed data is `buffer[start..<end]`.
  private var start = 0
  private var end = 0
  /// Where to resume looking for a newline (everything before it has none).
  private var scanned = 0
  private var isAtEndOfFile = false
  /// The file offset of `buffer[start]`.
  private var fileOffset: Int64 = 0
  private var lineNumber = 0
  /// The first bytes of an over-long line, kept while the rest is skipped.
  private let overlongPrefix = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)

  /// The number of bytes consumed so far.
  var bytesConsumed: Int64 { fileOffset }

  /// Opens a file for reading.
  ///
  /// - Parameters:
  ///   - path: the file.
  ///   - chunkSize: how much to read per system call.
  ///   - maximumLineLength: lines longer than this are skipped and reported.
  /// - Throws: ``FileReadError`` when the file cannot be opened.
  init(path: String, chunkSize: Int = 1 << 20, maximumLineLength: Int) throws(FileReadError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw FileReadError(path: path, errno: errno) }
    self.descriptor = descriptor
    self.chunkSize = chunkSize
    self.maximumLineLength = maximumLineLength
    self.buffer = .allocate(byteCount: chunkSize * 2, alignment: 16)
  }

  deinit {
    close(descriptor)
    buffer.deallocate()
    overlongPrefix.deallocate()
  }

  /// Returns the next line, or `nil` at the end of the file.
  ///
  /// - Throws: ``FileReadError`` when reading fails.
  func next() throws(FileReadError) -> Line? {
    while true {
      if let newline = findNewline() {
        return takeLine(upTo: newline, terminatorLength: 1)
      }
      if end - start > maximumLineLength {
        return try skipOverlongLine()
      }
      if isAtEndOfFile {
        guard start < end else { return nil }
        return takeLine(upTo: end, terminatorLength: 0)
      }
      try fill()
    }
  }

  private func findNewline() -> Int? {
    guard scanned < end, let base = buffer.baseAddress else { return nil }
    guard let found = memchr(base + scanned, 0x0A, end - scanned) else {
      scanned = end
      return nil
    }
    return base.distance(to: UnsafeMutableRawPointer(found))
  }

  private func takeLine(upTo newline: Int, terminatorLength: Int) -> Line {
    var lineEnd = newline
    if lineEnd > start, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
    lineNumber += 1
    let line = Line(
      bytes: UnsafeRawBufferPointer(rebasing: buffer[start..<lineEnd]), number: lineNumber,
      offset: fileOffset, length: lineEnd - start, isTooLong: false)
    let consumed = newline + terminatorLength - start
    fileOffset += Int64(consumed)
    start = newline + terminatorLength
    scanned = start
    return line
  }

  /// Skips the rest of a line that is too long, keeping its first bytes for the report.
  private func skipOverlongLine() throws(FileReadError) -> Line {
    let lineOffset = fileOffset
    let prefixLength = min(end - start, overlongPrefix.count)
    overlongPrefix.copyMemory(
      from: UnsafeRawBufferPointer(rebasing: buffer[start..<start + prefixLength]))
    var length = 0
    lineNumber += 1
    while true {
      if let newline = findNewline() {
        length += newline - start
        fileOffset += Int64(newline + 1 - start)
        start = newline + 1
        scanned = start
        break
      }
      length += end - start
      fileOffset += Int64(end - start)
      start = end
      scanned = end
      if isAtEndOfFile { break }
      try fill()
    }
    return Line(
      bytes: UnsafeRawBufferPointer(rebasing: overlongPrefix[0..<prefixLength]), number: lineNumber,
      offset: lineOffset, length: length, isTooLong: true)
  }

  /// Moves unconsumed bytes to the front, grows the buffer if a line needs it (never beyond
  /// the maximum line length plus one chunk), and reads one more chunk.
  private func fill() throws(FileReadError) {
    if start > 0 {
      let pending = end - start
      if pending > 0, let base = buffer.baseAddress {
        memmove(base, base + start, pending)
      }
      scanned -= start
      end = pending
      start = 0
    }
    if buffer.count - end < chunkSize {
      let grown = UnsafeMutableRawBufferPointer.allocate(
        byteCount: min(max(buffer.count * 2, end + chunkSize), maximumLineLength + 2 * chunkSize),
        alignment: 16)
      if let source = buffer.baseAddress, let target = grown.baseAddress, end > 0 {
        memcpy(target, source, end)
      }
      buffer.deallocate()
      buffer = grown
    }
    guard let base = buffer.baseAddress else { return }
    let count = read(descriptor, base + end, min(chunkSize, buffer.count - end))
    if count < 0 {
      if errno == EINTR { return }
      throw FileReadError(path: nil, errno: errno)
    }
    if count == 0 { isAtEndOfFile = true }
    end += count
  }
}
