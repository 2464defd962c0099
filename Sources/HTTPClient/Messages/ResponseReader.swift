/// Reads one HTTP/1.1 response off a connection: the head (interim 1xx answers skipped), then a
/// body framed by `Content-Length`, by chunked transfer coding, or by the connection's close.
struct ResponseReader {
  /// What was read, and whether the connection may carry another request.
  struct Outcome {
    var response: HTTPClientResponse
    var isReusable: Bool
  }

  let connection: Connection
  let deadline: ContinuousClock.Instant
  let maximumBytes: Int
  /// Bytes of the answer read so far, for the size bound.
  private var received = 0

  init(connection: Connection, deadline: ContinuousClock.Instant, maximumBytes: Int) {
    self.connection = connection
    self.deadline = deadline
    self.maximumBytes = maximumBytes
  }

  private var origin: Origin { connection.origin }

  /// Reads the answer to a request sent with `method`.
  ///
  /// - Throws: ``HTTPClientError`` of kind `connectionClosed` (with `receivedAnswerBytes`
  ///   false when nothing arrived), `timedOut`, `truncatedBody`, `malformedResponse` or
  ///   `responseTooLarge`.
  mutating func read(method: String) throws(HTTPClientError) -> Outcome {
    var head = try readHead()
    while (100...199).contains(head.status) {
      guard head.status != 101 else {
        throw HTTPClientError(
          .malformedResponse, "\(origin) switched protocols, which the client never asks for",
          receivedAnswerBytes: true)
      }
      head = try readHead()
    }
    let connectionTokens = head.tokens("connection").map { $0.lowercased() }
    var isReusable =
      head.minorVersion >= 1
      ? !connectionTokens.contains("close")
      : connectionTokens.contains("keep-alive")
    let body: [UInt8]
    let transferCodings = head.tokens("transfer-encoding").map { $0.lowercased() }
    let lengths = Set(head.tokens("content-length"))
    if method == "HEAD" || head.status == 204 || head.status == 304 {
      body = []
    } else if !transferCodings.isEmpty {
      // RFC 9112 6.3: a transfer coding overrides any length; a message carrying both is
      // suspect, so the connection is not used again.
      if !lengths.isEmpty { isReusable = false }
      if transferCodings.last == "chunked" {
        body = try readChunkedBody()
      } else {
        isReusable = false
        body = try readUntilClose()
      }
    } else if !lengths.isEmpty {
      guard lengths.count == 1, let text = lengths.first, let length = Int(text), length >= 0,
        text.allSatisfy(\.isASCII)
      else {
        throw HTTPClientError(
          .malformedResponse,
          "\(origin) sent an invalid Content-Length (\(lengths.sorted().joined(separator: ", ")))",
          receivedAnswerBytes: true)
      }
      body = try readBody(length: length)
    } else {
      isReusable = false
      body = try readUntilClose()
    }
    // Bytes after the answer were never asked for: the connection is out of step.
    if !connection.unread.isEmpty { isReusable = false }
    return Outcome(
      response: HTTPClientResponse(status: head.status, headers: head.headers, body: body),
      isReusable: isReusable)
  }

  // MARK: - Head

  private mutating func readHead() throws(HTTPClientError) -> ResponseHead {
    var scanned = 0
    while true {
      let unread = connection.unread
      if let end = Self.headEnd(in: unread, from: scanned) {
        let head = try ResponseHead(
          parsing: UnsafeRawBufferPointer(rebasing: unread[..<end]), from: origin)
        try count(end + 4)
        connection.consume(end + 4)
        return head
      }
      scanned = max(0, unread.count - 3)
      guard try connection.fill(until: deadline) else {
        if received == 0 && connection.unread.isEmpty {
          throw HTTPClientError(
            .connectionClosed, "\(origin) closed the connection without answering")
        }
        throw HTTPClientError(
          .malformedResponse, "\(origin) closed the connection in the middle of the header",
          receivedAnswerBytes: true)
      }
    }
  }

  /// The offset of the empty line's CR LF CR LF, searching from `start`.
  private static func headEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    guard bytes.count >= 4 else { return nil }
    var index = start
    while index + 3 < bytes.count {
      if bytes[index + 3] != 10 {
        index += bytes[index + 3] == 13 ? 1 : 4
        continue
      }
      if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 {
        return index
      }
      index += 1
    }
    return nil
  }

  // MARK: - Bodies

  private mutating func readBody(length: Int) throws(HTTPClientError) -> [UInt8] {
    guard length <= maximumBytes - received else { throw tooLarge() }
    var body: [UInt8] = []
    body.reserveCapacity(length)
    while body.count < length {
      if connection.unread.isEmpty {
        guard try connection.fill(until: deadline) else {
          throw HTTPClientError(
            .truncatedBody,
            "\(origin) closed the connection after \(body.count) of \(length) body bytes",
            receivedAnswerBytes: true)
        }
      }
      let piece = UnsafeRawBufferPointer(
        rebasing: connection.unread.prefix(length - body.count))
      body.append(contentsOf: piece)
      try count(piece.count)
      connection.consume(piece.count)
    }
    return body
  }

  private mutating func readUntilClose() throws(HTTPClientError) -> [UInt8] {
    var body: [UInt8] = []
    while true {
      let piece = connection.unread
      body.append(contentsOf: piece)
      try count(piece.count)
      connection.consume(piece.count)
      guard try connection.fill(until: deadline) else { return body }
    }
  }

  private mutating func readChunkedBody() throws(HTTPClientError) -> [UInt8] {
    var body: [UInt8] = []
    while true {
      let line = try readLine()
      let sizeText = line.prefix { $0 != ";" }.trimmingSpaces
      guard !sizeText.isEmpty, sizeText.count <= 15, let size = Int(sizeText, radix: 16),
        size >= 0
      else {
        throw HTTPClientError(
          .malformedResponse,
          "\(origin) sent an invalid chunk size line (\(line.prefix(40).debugDescription))",
          receivedAnswerBytes: true)
      }
      if size == 0 { break }
      guard size <= maximumBytes - received else { throw tooLarge() }
      body.reserveCapacity(body.count + size)
      var remaining = size
      while remaining > 0 {
        if connection.unread.isEmpty {
          guard try connection.fill(until: deadline) else { throw truncatedChunks(body.count) }
        }
        let piece = UnsafeRawBufferPointer(rebasing: connection.unread.prefix(remaining))
        body.append(contentsOf: piece)
        try count(piece.count)
        connection.consume(piece.count)
        remaining -= piece.count
      }
      guard try readLine().isEmpty else {
        throw HTTPClientError(
          .malformedResponse, "\(origin) sent a chunk longer than its announced size",
          receivedAnswerBytes: true)
      }
    }
    // Trailer fields, which the client does not use, up to the empty line.
    while try !readLine().isEmpty {}
    return body
  }

  /// One line ending in LF (CR LF accepted), without its end.
  private mutating func readLine() throws(HTTPClientError) -> String {
    var scanned = 0
    while true {
      let unread = connection.unread
      if let newline = unread[scanned...].firstIndex(of: 10) {
        let lineEnd = newline > 0 && unread[newline - 1] == 13 ? newline - 1 : newline
        let line = String(decoding: unread[..<lineEnd], as: UTF8.self)
        try count(newline + 1)
        connection.consume(newline + 1)
        return line
      }
      scanned = unread.count
      guard try connection.fill(until: deadline) else { throw truncatedChunks(nil) }
    }
  }

  // MARK: - Bounds

  private mutating func count(_ bytes: Int) throws(HTTPClientError) {
    received += bytes
    if received > maximumBytes { throw tooLarge() }
  }

  private func tooLarge() -> HTTPClientError {
    HTTPClientError(
      .responseTooLarge,
      "the answer from \(origin) is larger than the client's bound of \(maximumBytes) bytes",
      receivedAnswerBytes: true)
  }

  private func truncatedChunks(_ bodyBytes: Int?) -> HTTPClientError {
    HTTPClientError(
      .truncatedBody,
      "\(origin) closed the connection before the last chunk"
        + (bodyBytes.map { " (\($0) body bytes read)" } ?? ""),
      receivedAnswerBytes: true)
  }
}
