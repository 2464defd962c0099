/// Decodes a `Transfer-Encoding: chunked` body incrementally, as its bytes arrive (RFC 9112 §7.1).
///
/// Feed it whatever bytes have arrived; it consumes every complete element (a size line, a run of
/// data, a data terminator, a trailer line) and leaves a partial line for the next call. Chunk
/// extensions and trailer fields are checked for syntax and discarded: no client of this server
/// relies on them, and RFC 9110 §6.5 lets a recipient ignore trailers.
struct ChunkedBodyDecoder {
  private enum State: Equatable {
    case size
    case data(remaining: Int)
    case dataTerminator
    case trailers(bytesSeen: Int)
    case finished
  }

  /// The longest chunk size line accepted, extensions included.
  static let maximumSizeLineBytes = 1024

  private let maximumBodyBytes: Int
  private let maximumTrailerBytes: Int
  private var state = State.size

  init(maximumBodyBytes: Int, maximumTrailerBytes: Int) {
    self.maximumBodyBytes = maximumBodyBytes
    self.maximumTrailerBytes = maximumTrailerBytes
  }

  /// Whether the last chunk and the trailer section have been read.
  var isFinished: Bool { state == .finished }

  /// Decodes as much of `input` as forms complete elements, appending chunk data to `body`.
  ///
  /// - Returns: How many bytes of `input` were consumed; the rest must be offered again with more
  ///   bytes after it.
  /// - Throws: A `RequestRejection`: 400 for bad syntax, 413 when the body passes its limit, 431
  ///   when the trailers pass theirs.
  mutating func decode(
    _ input: UnsafeBufferPointer<UInt8>, into body: inout [UInt8]
  ) throws(RequestRejection) -> Int {
    var position = 0
    while position < input.count {
      switch state {
      case .size:
        guard
          let lineEnd = try Self.lineEnd(
            in: input, from: position, limit: Self.maximumSizeLineBytes, what: "chunk size line")
        else { return position }
        let size = try chunkSize(input[position..<lineEnd])
        position = lineEnd + 2
        if size == 0 {
          state = .trailers(bytesSeen: 0)
        } else {
          guard size <= maximumBodyBytes - body.count else {
            throw .bodyTooLarge(limit: maximumBodyBytes)
          }
          state = .data(remaining: size)
        }
      case .data(let remaining):
        let available = min(remaining, input.count - position)
        body.append(contentsOf: input[position..<(position + available)])
        position += available
        state = available == remaining ? .dataTerminator : .data(remaining: remaining - available)
      case .dataTerminator:
        guard input.count - position >= 2 else { return position }
        guard input[position] == ASCII.carriageReturn, input[position + 1] == ASCII.lineFeed else {
          throw .malformed("chunk data is longer than its size line says (no CRLF after it)")
        }
        position += 2
        state = .size
      case .trailers(let bytesSeen):
        guard
          let lineEnd = try Self.lineEnd(
            in: input, from: position, limit: maximumTrailerBytes - bytesSeen, what: "trailer")
        else { return position }
        if lineEnd == position {
          state = .finished
          return position + 2
        }
        _ = try RequestHeadParser.parseField(input[position..<lineEnd])
        state = .trailers(bytesSeen: bytesSeen + lineEnd + 2 - position)
        position = lineEnd + 2
      case .finished:
        return position
      }
    }
    return position
  }

  /// Parses `chunk-size [chunk-ext]`: hexadecimal digits, then nothing or `;` extensions.
  private func chunkSize(_ line: Slice<UnsafeBufferPointer<UInt8>>) throws(RequestRejection) -> Int
  {
    var size = 0
    var digits = 0
    var index = line.startIndex
    while index < line.endIndex, let digit = ASCII.hexDigitValue(line[index]) {
      // Checked before shifting so a long run of digits cannot overflow.
      guard size <= (maximumBodyBytes - digit) / 16 else {
        throw .bodyTooLarge(limit: maximumBodyBytes)
      }
      size = size * 16 + digit
      digits += 1
      index += 1
    }
    guard digits > 0 else {
      throw .malformed("a chunk size line does not start with a hexadecimal size")
    }
    let extensions = line[index...].drop(while: ASCII.isWhitespace)
    guard extensions.isEmpty || extensions.first == ASCII.semicolon,
      extensions.allSatisfy(ASCII.isFieldValueCharacter)
    else {
      throw .malformed("a chunk size line has characters after the size that are not an extension")
    }
    return size
  }

  /// The index of the CR of the next CRLF at or after `start`, or `nil` when the line is not
  /// complete yet.
  ///
  /// - Throws: 431 (trailers) or 400 (size lines) when the line passes `limit`, whether or not it
  ///   has ended; 400 for a bare LF within the limit.
  private static func lineEnd(
    in input: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int, what: String
  ) throws(RequestRejection) -> Int? {
    var index = start
    while index < input.count {
      if input[index] == ASCII.lineFeed {
        // The length is judged first: a line that arrives in pieces is refused for its length
        // as soon as it passes the limit, before its end is seen, and the verdict must not
        // depend on how the network split the bytes.
        guard index + 1 - start <= limit else { throw tooLong(what) }
        guard index > start, input[index - 1] == ASCII.carriageReturn else {
          throw .malformed("a \(what) ends in a bare LF; end every line with CRLF")
        }
        return index - 1
      }
      index += 1
    }
    guard index - start <= limit else { throw tooLong(what) }
    return nil
  }

  private static func tooLong(_ what: String) -> RequestRejection {
    what == "trailer"
      ? RequestRejection(
        status: .requestHeaderFieldsTooLarge,
        reason: "the chunked body's trailer fields exceed the server's header limit")
      : .malformed("a \(what) is longer than \(maximumSizeLineBytes) bytes")
  }
}
