#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file one line at a time through a fixed-size buffer, so memory stays flat however
/// large the file is. A line longer than the limit is not held: it is skipped to its end and
/// reported with its first bytes and its length, so a 100 MB line costs no more memory than a
/// short one.
///
/// A line ends at `\n` or `\r\n`; for CSV a lone `\r` ends one too, as classic Mac OS and
/// Excel's "CSV (Macintosh)" wrote them. NDJSON keeps `\n` only: a JSON text holds no raw line
/// break, and a stray `\r` must not split a record.
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
    /// What ended the line: a CSV row whose quoted field spans lines keeps it as it was.
    var terminator: Terminator = .lineFeed
  }

  /// The bytes that ended a line.
  enum Terminator {
    /// `\n`.
    case lineFeed
    /// `\r\n`.
    case carriageReturnLineFeed
    /// A lone `\r` (read only when it ends lines).
    case carriageReturn
    /// Nothing: the file's last line.
    case endOfFile

    /// The bytes themselves.
    var bytes: [UInt8] {
      switch self {
      case .lineFeed: [0x0A]
      case .carriageReturnLineFeed: [0x0D, 0x0A]
      case .carriageReturn: [0x0D]
      case .endOfFile: []
      }
    }
  }

  /// How a pipe is waited for: it is read without blocking, in slices that look at the stop
  /// request, and given up when it stays silent too long before its first byte.
  struct Stream {
    /// The longest wait for a writer's first byte, in milliseconds.
    var writerWait: Int64
    /// Whether the caller wants reading to stop.
    var isStopping: (@Sendable () -> Bool)?
  }

  /// How often a wait for a pipe looks at the stop request, in milliseconds.
  static let stopCheckInterval: Int32 = 100

  private let descriptor: Int32
  private let path: String
  private let chunkSize: Int
  private let maximumLineLength: Int
  /// Whether a lone `\r` ends a line; set once a stream's first line tells its format.
  var carriageReturnEndsLine: Bool
  private let stream: Stream?
  private var sawByte = false
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
  ///   - carriageReturnEndsLine: whether a lone `\r` ends a line (CSV), besides `\n` and `\r\n`.
  ///   - stream: for a pipe, how it is waited for; `nil` for a file.
  /// - Throws: ``FileReadError`` when the file cannot be opened.
  init(
    path: String, chunkSize: Int = 1 << 20, maximumLineLength: Int,
    carriageReturnEndsLine: Bool = false, stream: Stream? = nil
  ) throws(FileReadError) {
    // A pipe is opened without blocking: opening a named pipe for reading otherwise waits,
    // beyond any signal's reach, for a writer that may never come.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | (stream == nil ? 0 : O_NONBLOCK))
    guard descriptor >= 0 else { throw FileReadError(path: path, errno: errno) }
    self.descriptor = descriptor
    self.path = path
    self.stream = stream
    self.chunkSize = chunkSize
    self.maximumLineLength = maximumLineLength
    self.carriageReturnEndsLine = carriageReturnEndsLine
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
      if let lineEnd = findLineEnd() {
        return takeLine(lineEnd)
      }
      if end - start > maximumLineLength {
        return try skipOverlongLine()
      }
      if isAtEndOfFile {
        guard start < end else { return nil }
        // The last line: a carriage return at its very end is a line break cut short.
        let last = end > start && buffer[end - 1] == 0x0D ? end - 1 : end
        return takeLine(LineEnd(contentEnd: last, nextStart: end, terminator: .endOfFile))
      }
      try fill()
    }
  }

  /// Where a line ends: its content's end, where the next line starts, and what lay between.
  private struct LineEnd {
    var contentEnd: Int
    var nextStart: Int
    var terminator: Terminator
  }

  /// The end of the line at `start`, when the bytes read so far hold it.
  private func findLineEnd() -> LineEnd? {
    guard scanned < end, let base = buffer.baseAddress else { return nil }
    guard carriageReturnEndsLine else {
      guard let found = memchr(base + scanned, 0x0A, end - scanned) else {
        scanned = end
        return nil
      }
      let lineFeed = base.distance(to: UnsafeMutableRawPointer(found))
      if lineFeed > start, buffer[lineFeed - 1] == 0x0D {
        return LineEnd(
          contentEnd: lineFeed - 1, nextStart: lineFeed + 1, terminator: .carriageReturnLineFeed)
      }
      return LineEnd(contentEnd: lineFeed, nextStart: lineFeed + 1, terminator: .lineFeed)
    }
    // One pass for the first CR or LF: two `memchr`s, one per byte, would each run to the end
    // of the buffer on every line of a file that has only the other.
    var index = scanned
    while index < end, buffer[index] != 0x0A, buffer[index] != 0x0D { index += 1 }
    guard index < end else {
      scanned = end
      return nil
    }
    if buffer[index] == 0x0A {
      return LineEnd(contentEnd: index, nextStart: index + 1, terminator: .lineFeed)
    }
    if index + 1 < end {
      return buffer[index + 1] == 0x0A
        ? LineEnd(contentEnd: index, nextStart: index + 2, terminator: .carriageReturnLineFeed)
        : LineEnd(contentEnd: index, nextStart: index + 1, terminator: .carriageReturn)
    }
    if isAtEndOfFile {
      return LineEnd(contentEnd: index, nextStart: index + 1, terminator: .carriageReturn)
    }
    // The last byte read: whether `\n` follows is not known until more is read.
    scanned = index
    return nil
  }

  private func takeLine(_ lineEnd: LineEnd) -> Line {
    lineNumber += 1
    let length = lineEnd.contentEnd - start
    // A line whole in the buffer can still pass the limit (a limit below the chunk size): it is
    // reported like one skipped, with its first bytes.
    let isTooLong = length > maximumLineLength
    let kept = isTooLong ? min(length, overlongPrefix.count) : length
    let line = Line(
      bytes: UnsafeRawBufferPointer(rebasing: buffer[start..<start + kept]), number: lineNumber,
      offset: fileOffset, length: length, isTooLong: isTooLong, terminator: lineEnd.terminator)
    fileOffset += Int64(lineEnd.nextStart - start)
    start = lineEnd.nextStart
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
      if let lineEnd = findLineEnd() {
        length += lineEnd.contentEnd - start
        fileOffset += Int64(lineEnd.nextStart - start)
        start = lineEnd.nextStart
        scanned = start
        break
      }
      // Up to `scanned`: a carriage return read last stays, to be judged with what follows.
      length += scanned - start
      fileOffset += Int64(scanned - start)
      start = scanned
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
    if let stream { try waitForBytes(stream) }
    let count = read(descriptor, base + end, min(chunkSize, buffer.count - end))
    if count < 0 {
      if errno == EINTR || errno == EAGAIN { return }
      throw FileReadError(path: nil, errno: errno)
    }
    if count == 0 { isAtEndOfFile = true }
    if count > 0 { sawByte = true }
    end += count
  }

  /// Waits until the pipe has bytes or its writer is gone, looking at the stop request every
  /// ``stopCheckInterval``.
  ///
  /// A named pipe that no process ever opened for writing reports neither: `poll` times out
  /// until a writer comes, and `read` would say "end of file" at once. It is given up after
  /// `writerWait` without a first byte.
  private func waitForBytes(_ stream: Stream) throws(FileReadError) {
    var waited: Int64 = 0
    while true {
      if stream.isStopping?() == true { throw FileReadError(path: path, errno: ECANCELED) }
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&request, 1, Self.stopCheckInterval)
      if ready > 0 { return }
      if ready < 0 && errno != EINTR { throw FileReadError(path: nil, errno: errno) }
      guard !sawByte else { continue }
      waited += Int64(Self.stopCheckInterval)
      if waited >= stream.writerWait {
        throw FileReadError(
          path: path, errno: ETIMEDOUT,
          detail: "nothing arrived through the pipe for \(stream.writerWait / 1000) s (no "
            + "process opened it for writing, or its writer sent nothing); start the writer "
            + "first, or name a file")
      }
    }
  }

  /// The bytes read so far that no line has taken yet, after reading until they hold a line
  /// end (`\n` or `\r`), or `limit` bytes, or the end: how a stream's first line is looked at
  /// before its format is chosen, without taking it.
  ///
  /// - Parameter limit: how many bytes are enough.
  /// - Returns: the unconsumed bytes, valid until the next read.
  /// - Throws: ``FileReadError`` when reading fails.
  func peek(upTo limit: Int) throws(FileReadError) -> UnsafeRawBufferPointer {
    while !isAtEndOfFile, end - start < limit,
      !buffer[start..<end].contains(where: { $0 == 0x0A || $0 == 0x0D })
    {
      try fill()
    }
    return UnsafeRawBufferPointer(rebasing: buffer[start..<end])
  }
}
