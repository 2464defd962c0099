/// What a ``SocketHTTPClient`` has done since it was made.
public struct HTTPClientStatistics: Sendable, Hashable {
  /// Connections opened (TCP, and TLS for `https`).
  public var connectionsOpened = 0
  /// Requests answered on a connection that had carried an earlier request.
  public var requestsOnReusedConnections = 0
  /// Requests sent again on a new connection because a reused one turned out closed.
  public var retriesAfterStaleConnection = 0
  /// Requests that got a complete answer.
  public var responses = 0

  /// All zero.
  public init() {}
}
