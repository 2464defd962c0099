/// One finished request, as the `requestLog` callback receives it.
public struct HTTPRequestLogEntry: Sendable {
  /// The client's address.
  public var remoteAddress: SocketAddress
  /// The request method; `nil` when the request line could not be parsed.
  public var method: HTTPMethod?
  /// The request target exactly as sent, still percent-encoded; `nil` when the request line could
  /// not be parsed.
  public var target: String?
  /// The status answered (or attempted); `nil` when no status line was sent.
  public var status: HTTPStatus?
  /// Whether the handler was called, as opposed to the server rejecting the request itself.
  public var reachedHandler: Bool
  /// How the request ended for the client.
  public var outcome: HTTPResponseOutcome
  /// The request body's length in bytes.
  public var requestBodyBytes: Int
  /// Bytes of the response written, headers included.
  public var responseBytesSent: Int
  /// From the request's first byte to the end of the response, delays included.
  public var duration: Duration

  /// Creates a log entry.
  ///
  /// - Parameters:
  ///   - remoteAddress: The client's address.
  ///   - method: The method, if parsed.
  ///   - target: The raw target, if parsed.
  ///   - status: The status, if one was sent.
  ///   - reachedHandler: Whether the handler was called.
  ///   - outcome: How the request ended.
  ///   - requestBodyBytes: The body's length.
  ///   - responseBytesSent: Bytes written.
  ///   - duration: Time from first byte to last.
  public init(
    remoteAddress: SocketAddress,
    method: HTTPMethod?,
    target: String?,
    status: HTTPStatus?,
    reachedHandler: Bool,
    outcome: HTTPResponseOutcome,
    requestBodyBytes: Int,
    responseBytesSent: Int,
    duration: Duration
  ) {
    self.remoteAddress = remoteAddress
    self.method = method
    self.target = target
    self.status = status
    self.reachedHandler = reachedHandler
    self.outcome = outcome
    self.requestBodyBytes = requestBodyBytes
    self.responseBytesSent = responseBytesSent
    self.duration = duration
  }
}
