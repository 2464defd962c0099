/// A parsed request line and header block, with the framing decisions made from them.
struct RequestHead {
  var method: HTTPMethod
  /// The request target exactly as sent, for logs.
  var target: String
  var path: String
  var queryItems: [HTTPQueryItem]
  var version: HTTPVersion
  var headers: HTTPHeaders
  var framing: BodyFraming
  /// Whether the client allows the connection to stay open after the response, from the version
  /// and the `Connection` field.
  var keepAlive: Bool
  /// Whether the client waits for `100 Continue` before sending the body.
  var expectsContinue: Bool
}
