/// What a handler answers: a status, headers and body, and optionally a delay or a fault.
///
/// The server owns the framing headers. It always writes `Content-Length` itself (except for 204
/// and 304, which have no body), drops any `Content-Length`, `Transfer-Encoding` or `Connection`
/// field the handler set, and adds `Connection: close` when it is about to close. It adds no
/// `Date` or `Server` field, so equal responses are equal bytes on the wire. A handler that wants
/// the connection closed after the response sets `Connection: close`.
public struct HTTPResponse: Sendable {
  /// The status line's code and phrase.
  public var status: HTTPStatus
  /// The header fields, in the order to send them.
  public var headers: HTTPHeaders
  /// The body bytes.
  public var body: [UInt8]
  /// How long the server waits before it starts answering; zero for no delay.
  ///
  /// The wait happens on the connection's own thread and blocks no other connection. `stop()`
  /// cuts a delay short when its grace period runs out, closing the connection unanswered.
  public var delay: Duration
  /// A failure to act out instead of the normal answer; `nil` to answer normally.
  public var fault: HTTPFault?

  /// Creates a response.
  ///
  /// - Parameters:
  ///   - status: The status; 200 OK by default.
  ///   - headers: The header fields.
  ///   - body: The body bytes.
  ///   - delay: A wait before answering.
  ///   - fault: A failure to act out, if any.
  public init(
    status: HTTPStatus = .ok,
    headers: HTTPHeaders = [:],
    body: [UInt8] = [],
    delay: Duration = .zero,
    fault: HTTPFault? = nil
  ) {
    self.status = status
    self.headers = headers
    self.body = body
    self.delay = delay
    self.fault = fault
  }

  /// A plain-text response, `Content-Type: text/plain; charset=utf-8`.
  ///
  /// - Parameters:
  ///   - text: The body, sent as UTF-8.
  ///   - status: The status; 200 OK by default.
  /// - Returns: The response.
  public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
    HTTPResponse(
      status: status,
      headers: ["Content-Type": "text/plain; charset=utf-8"],
      body: Array(text.utf8)
    )
  }
}
