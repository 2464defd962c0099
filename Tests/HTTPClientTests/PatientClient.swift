import HTTPClient

extension SocketHTTPClient {
  /// A client that keeps idle connections for ten minutes instead of 50 s: a test process busy
  /// with other tests can leave a test unscheduled for longer than that between two requests,
  /// and the tests that use it are about reusing one connection, not about the idle limit.
  static func patient() -> SocketHTTPClient {
    var configuration = HTTPClientConfiguration()
    configuration.idleConnectionLifetime = .seconds(600)
    return SocketHTTPClient(configuration: configuration)
  }
}
