/// How a ``SocketHTTPClient`` connects, waits and bounds what it reads.
public struct HTTPClientConfiguration: Sendable, Hashable {
  /// How long a request may take from the call to the last byte of its answer, connecting and
  /// waiting for a free connection included.
  public var timeout: Duration = .seconds(30)
  /// Requests in progress at once, which is also the number of I/O threads and the most
  /// connections open at once. Further requests wait their turn.
  public var maximumConcurrentRequests = 64
  /// Idle keep-alive connections kept per host; more are closed when returned.
  public var maximumIdleConnectionsPerHost = 64
  /// How long an idle connection is kept before it is closed rather than used again.
  public var idleConnectionLifetime: Duration = .seconds(50)
  /// The largest answer accepted, head and body together; a larger one fails with
  /// ``HTTPClientError/Kind/responseTooLarge``.
  public var maximumResponseBytes = 32 << 20
  /// Certificates (PEM) trusted for TLS in addition to the system's trust store; empty in
  /// production, a test's own authority in tests.
  public var additionalTrustedCertificatesPEM: [String] = []

  /// The defaults above.
  public init() {}
}
