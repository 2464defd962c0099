/// Writes a request head and body as HTTP/1.1 bytes.
enum RequestSerializer {
  /// The request's bytes: request line, `Host`, the caller's fields, `Content-Length` when there
  /// is a body or the method usually has one, the empty line, the body.
  ///
  /// - Throws: ``HTTPClientError/Kind/invalidRequest`` for a method, target or field that would
  ///   break the framing (spaces, CR or LF where they do not belong).
  static func bytes(of request: HTTPClientRequest, origin: Origin) throws(HTTPClientError)
    -> [UInt8]
  {
    guard isToken(request.method), !request.target.utf8.contains(where: { $0 <= 32 || $0 == 127 })
    else {
      throw HTTPClientError(
        .invalidRequest, "the request line \(request.method) \(request.target) is not valid HTTP")
    }
    var head = "\(request.method) \(request.target) HTTP/1.1\r\nHost: \(origin.hostField)\r\n"
    for (name, value) in request.headers {
      let lowered = name.lowercased()
      guard isToken(name), !value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }),
        lowered != "host", lowered != "content-length", lowered != "transfer-encoding"
      else {
        throw HTTPClientError(
          .invalidRequest,
          "the header field \(name.debugDescription) cannot be sent: framing fields are the "
            + "client's, and names and values may not hold line breaks")
      }
      head += "\(name): \(value)\r\n"
    }
    if let body = request.body {
      head += "Content-Length: \(body.count)\r\n"
    } else if request.method == "POST" || request.method == "PUT" {
      head += "Content-Length: 0\r\n"
    }
    head += "\r\n"
    var bytes = Array(head.utf8)
    if let body = request.body { bytes += body }
    return bytes
  }

  /// Whether `text` is an RFC 9110 token: visible ASCII without delimiters.
  private static func isToken(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        byte > 32 && byte < 127 && !"\"(),/:;<=>?@[\\]{}".utf8.contains(byte)
      }
  }
}
