/// Turns a handler's response into the bytes of an HTTP/1.1 response.
enum ResponseSerializer {
  /// What the server says about the connection in the response.
  enum ConnectionField {
    /// Nothing: HTTP/1.1 keeps the connection open by default.
    case none
    /// `Connection: keep-alive`, for an HTTP/1.0 client that asked for it.
    case keepAlive
    /// `Connection: close`: the server closes the connection after this response.
    case close
  }

  /// The interim response to `Expect: 100-continue`.
  static let continueResponse = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

  /// The response itself, or a 500 naming the problem when it cannot be sent as it is: a status
  /// outside 200–599, or a header that would break the framing of the response.
  static func validated(_ response: HTTPResponse) -> HTTPResponse {
    guard let problem = problem(in: response) else { return response }
    return .text(
      "the request handler's response cannot be sent: \(problem)\n", status: .internalServerError)
  }

  /// Whether the handler asked for the connection to be closed after the response.
  static func asksToClose(_ response: HTTPResponse) -> Bool {
    response.headers.values(named: "Connection").contains { value in
      RequestHeadParser.listElements(value).contains { HTTPHeaders.namesMatch($0, "close") }
    }
  }

  /// Whether a response with this status has a body (RFC 9110 §6.4.1).
  static func hasBody(_ status: HTTPStatus) -> Bool {
    status.code != 204 && status.code != 304 && status.code >= 200
  }

  /// The serialized response.
  ///
  /// - Parameters:
  ///   - response: A response that passed `validated(_:)`.
  ///   - requestMethod: The request's method; no body is sent for `HEAD`.
  ///   - connection: What to say about the connection.
  ///   - bodyPrefixLength: How many body bytes to send, when fewer than all of them.
  static func serialize(
    _ response: HTTPResponse, requestMethod: HTTPMethod, connection: ConnectionField,
    bodyPrefixLength: Int? = nil
  ) -> [UInt8] {
    let hasBody = hasBody(response.status)
    let bodyLength =
      hasBody && requestMethod != .head
      ? min(bodyPrefixLength ?? response.body.count, response.body.count) : 0
    var bytes: [UInt8] = []
    bytes.reserveCapacity(128 + response.headers.fields.count * 48 + bodyLength)
    bytes += "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n".utf8
    for field in response.headers where !isServerManaged(field.name) {
      bytes += field.name.utf8
      bytes += ": ".utf8
      bytes += field.value.utf8
      bytes += "\r\n".utf8
    }
    if hasBody {
      bytes += "Content-Length: \(response.body.count)\r\n".utf8
    }
    switch connection {
    case .none: break
    case .keepAlive: bytes += "Connection: keep-alive\r\n".utf8
    case .close: bytes += "Connection: close\r\n".utf8
    }
    bytes += "\r\n".utf8
    bytes += response.body[..<bodyLength]
    return bytes
  }

  // MARK: - Validation

  private static func problem(in response: HTTPResponse) -> String? {
    guard (200...599).contains(response.status.code) else {
      return "status \(response.status.code) is not a final status (200–599)"
    }
    guard response.status.reasonPhrase.utf8.allSatisfy(ASCII.isFieldValueCharacter) else {
      return "the reason phrase of status \(response.status.code) contains a control character"
    }
    for field in response.headers {
      guard !field.name.isEmpty, field.name.utf8.allSatisfy(ASCII.isTokenCharacter) else {
        return "the header field name \"\(field.name)\" is not a token"
      }
      guard field.value.utf8.allSatisfy(ASCII.isFieldValueCharacter) else {
        return "the value of header field \(field.name) contains a control character (CR, LF…)"
      }
    }
    return nil
  }

  /// Fields the server writes itself, whatever the handler set.
  private static func isServerManaged(_ name: String) -> Bool {
    HTTPHeaders.namesMatch(name, "Content-Length")
      || HTTPHeaders.namesMatch(name, "Transfer-Encoding")
      || HTTPHeaders.namesMatch(name, "Connection")
  }
}
