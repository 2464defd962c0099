/// Counters of what an `HTTPServer` has done since it started.
///
/// Each counter is exact on its own; a snapshot read while requests are in flight is not one
/// instant across counters (a request may be counted as served before its bytes are counted).
public struct HTTPServerStatistics: Hashable, Sendable {
  /// Connections accepted from the listening socket.
  public var connectionsAccepted = 0
  /// Connections open right now.
  public var connectionsOpen = 0
  /// Idle keep-alive connections closed to make room because `maximumConnections` was reached.
  public var connectionsClosedForCapacity = 0
  /// Times accepting a connection failed, for example for lack of file descriptors.
  public var acceptFailures = 0
  /// Requests read completely and passed to the handler.
  public var requestsServed = 0
  /// Requests the server answered itself with 400, 413, 417, 431, 501 or 505 without calling the
  /// handler.
  public var requestsRejected = 0
  /// Final responses sent with a 2xx status.
  public var successfulResponses = 0
  /// Final responses sent with a 3xx status.
  public var redirectionResponses = 0
  /// Final responses sent with a 4xx status, including the server's own rejections.
  public var clientErrorResponses = 0
  /// Final responses sent with a 5xx status, including the server's own rejections.
  public var serverErrorResponses = 0
  /// Connections closed unanswered because a handler asked for `.closeWithoutResponse`.
  public var faultsClosedWithoutResponse = 0
  /// Responses cut short because a handler asked for `.truncateBody`.
  public var faultsTruncatedBody = 0
  /// Keep-alive connections closed after `idleTimeout` without a new request.
  public var idleTimeouts = 0
  /// Connections closed because a request took longer than `readTimeout` to arrive.
  public var readTimeouts = 0
  /// Connections closed because a response took longer than `writeTimeout` to send.
  public var writeTimeouts = 0
  /// Bytes read from clients.
  public var bytesReceived = 0
  /// Bytes written to clients, headers included.
  public var bytesSent = 0

  /// Creates all-zero statistics.
  public init() {}
}
