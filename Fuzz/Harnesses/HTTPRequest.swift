// libFuzzer harness for the request parsing of the simulator's HTTP server (Sources/HTTPServer):
// the request head parser, the chunked body decoder and the rejection answer.
//
// The input is what a client sends on one connection. The harness replays what a connection
// does with it, without a socket: skip empty lines, find the end of the head, parse it, read the
// body as its framing says, and go on to the next pipelined request while the connection stays
// open. A chunked body is decoded both in one piece and in the small pieces a network delivers,
// which must agree. Rejections are verdicts; crashes, hangs and broken invariants
// (`invariant`) are findings.

@testable import HTTPServer

/// The server's default limits, as `simulator serve` runs with.
let configuration = HTTPServerConfiguration()

/// Called by libFuzzer once per input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  var stream = Array(UnsafeBufferPointer(start: data, count: size))[...]
  // A connection serves requests until one closes it; a bound keeps the harness fast.
  for _ in 0..<16 {
    guard serveOne(&stream) else { break }
  }
  return 0
}

/// Reads one request from the front of `stream`, as a connection would.
///
/// - Returns: Whether the connection would read another request.
func serveOne(_ stream: inout ArraySlice<UInt8>) -> Bool {
  let crlf: [UInt8] = [0x0D, 0x0A]
  while stream.starts(with: crlf) { stream.removeFirst(2) }
  // Without the blank line that ends the head, the connection waits for more bytes.
  guard let terminator = headEnd(in: stream) else { return false }
  guard terminator - stream.startIndex + 4 <= configuration.maximumHeaderBytes else {
    answer(.headerTooLarge(limit: configuration.maximumHeaderBytes), method: nil)
    return false
  }
  let head: RequestHead
  do {
    head = try stream[..<terminator].withUnsafeBufferPointer { buffer throws(RequestRejection) in
      try RequestHeadParser.parse(buffer)
    }
  } catch {
    answer(error, method: nil)
    return false
  }
  check(head)
  stream = stream[(terminator + 4)...]

  let body: [UInt8]
  switch head.framing {
  case .none:
    body = []
  case .contentLength(let length):
    guard length <= configuration.maximumBodyBytes else {
      answer(.bodyTooLarge(limit: configuration.maximumBodyBytes), method: head.method)
      return false
    }
    guard stream.count >= length else { return false }
    body = Array(stream.prefix(length))
    stream = stream.dropFirst(length)
  case .chunked:
    switch decodeChunked(&stream) {
    case .complete(let decoded): body = decoded
    case .incomplete: return false
    case .rejected(let rejection):
      answer(rejection, method: head.method)
      return false
    }
  }
  let request = HTTPRequest(
    method: head.method, path: head.path, queryItems: head.queryItems, version: head.version,
    headers: head.headers, body: body)
  _ = request.queryValue(named: "revision")
  _ = ResponseSerializer.serialize(
    .text("ok\n"), requestMethod: request.method, connection: head.keepAlive ? .keepAlive : .close)
  return head.keepAlive
}

/// The index of the CR LF CR LF that ends the head at the front of `stream`.
func headEnd(in stream: ArraySlice<UInt8>) -> Int? {
  var index = stream.startIndex
  while index + 3 < stream.endIndex {
    if stream[index] == 0x0D, stream[index + 1] == 0x0A, stream[index + 2] == 0x0D,
      stream[index + 3] == 0x0A
    {
      return index
    }
    index += 1
  }
  return nil
}

/// What every accepted head must satisfy.
func check(_ head: RequestHead) {
  invariant(head.path.hasPrefix("/"), "the path \(head.path) does not start with /")
  invariant(!head.method.rawValue.isEmpty, "an empty method was accepted")
  invariant(head.version.major == 1 && head.version.minor <= 1, "version \(head.version)")
  if case .contentLength(let length) = head.framing {
    invariant(length > 0, "a Content-Length framing of \(length) bytes")
  }
}

/// Builds the answer to a rejected request, as the connection sends it before closing.
func answer(_ rejection: RequestRejection, method: HTTPMethod?) {
  // The reason quotes request bytes; it must never carry a line break into the answer.
  invariant(
    !rejection.reason.utf8.contains(0x0D) && !rejection.reason.utf8.contains(0x0A),
    "the reason \(rejection.reason) contains a line break")
  let response = HTTPResponse.text(rejection.reason + "\n", status: rejection.status)
  _ = ResponseSerializer.serialize(response, requestMethod: method ?? .get, connection: .close)
}

/// The outcome of reading a chunked body.
enum ChunkedOutcome: Equatable {
  case complete([UInt8])
  case incomplete
  case rejected(RequestRejection)
}

/// Decodes the chunked body at the front of `stream` in one piece and in small pieces, checks
/// that both readings agree, and consumes what the body took.
func decodeChunked(_ stream: inout ArraySlice<UInt8>) -> ChunkedOutcome {
  let whole = decode(stream, pieceSize: stream.count)
  // The piece size varies with the input's length, so the fuzzer explores the splits too.
  let pieces = decode(stream, pieceSize: 1 + stream.count % 13)
  invariant(whole.outcome == pieces.outcome, "in one piece: \(whole); in pieces: \(pieces)")
  if case .rejected = whole.outcome {
    // A rejected body closes the connection; how far decoding got no longer matters.
  } else {
    invariant(whole.consumed == pieces.consumed, "in one piece: \(whole); in pieces: \(pieces)")
  }
  stream = stream.dropFirst(whole.consumed)
  return whole.outcome
}

/// Feeds `wire` to a decoder `pieceSize` bytes at a time, keeping unconsumed bytes for the next
/// call as the connection's buffer does.
func decode(_ wire: ArraySlice<UInt8>, pieceSize: Int) -> (outcome: ChunkedOutcome, consumed: Int) {
  var decoder = ChunkedBodyDecoder(
    maximumBodyBytes: configuration.maximumBodyBytes,
    maximumTrailerBytes: configuration.maximumHeaderBytes)
  var body: [UInt8] = []
  var consumed = 0
  var available = 0
  while !decoder.isFinished {
    guard available < wire.count else { return (.incomplete, consumed) }
    available = min(wire.count, available + max(1, pieceSize))
    let window = wire[(wire.startIndex + consumed)..<(wire.startIndex + available)]
    do {
      consumed += try window.withUnsafeBufferPointer { buffer throws(RequestRejection) in
        try decoder.decode(buffer, into: &body)
      }
    } catch {
      return (.rejected(error), consumed)
    }
  }
  return (.complete(body), consumed)
}
