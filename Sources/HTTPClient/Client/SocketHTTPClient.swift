/// A small HTTP/1.1 client over POSIX sockets, with OpenSSL for `https`.
///
/// ```swift
/// let client = SocketHTTPClient()
/// let response = try await client.execute(
///   HTTPClientRequest(method: "GET", scheme: "https", host: "api.storekit.itunes.apple.com",
///                     target: "/inApps/v1/history/1"))
/// ```
///
/// - Keep-alive connections are pooled per host and reused most recent first; an idempotent
///   request that finds its reused connection closed by the server is sent again on a new one.
/// - Bodies framed by `Content-Length`, chunked coding or the connection's close; answers larger
///   than ``HTTPClientConfiguration/maximumResponseBytes`` are refused.
/// - Every request has a deadline covering the wait for a thread, connecting, TLS, writing and
///   reading.
/// - TLS verifies the certificate chain against the system trust store and the host name (or
///   address) always; there is no switch to turn either off. The server name is sent (SNI).
/// - Host names resolve with `getaddrinfo`, IPv4 and IPv6.
///
/// Requests run with blocking I/O on the client's own threads (``HTTPClientConfiguration/
/// maximumConcurrentRequests`` at most), never on Swift's cooperative pool; the calling task
/// waits on a continuation. A cancelled task's request fails at once when it has not started,
/// and otherwise finishes or fails by its deadline.
public final class SocketHTTPClient: Sendable {
  /// The configuration the client was made with.
  public let configuration: HTTPClientConfiguration

  private let runner: RequestRunner
  private let threads: WorkerThreads

  /// A client with `configuration`; it opens nothing until the first request.
  ///
  /// - Parameter configuration: Timeouts, bounds and extra trust.
  public init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) {
    self.configuration = configuration
    let runner = RequestRunner(configuration: configuration)
    self.runner = runner
    threads = WorkerThreads(
      maximumThreads: configuration.maximumConcurrentRequests, idleLifetime: .seconds(30),
      run: { runner.run($0) })
  }

  deinit {
    shutDown()
  }

  /// What the client has done so far.
  public var statistics: HTTPClientStatistics { runner.statistics }

  /// Sends `request` and waits for its whole answer.
  ///
  /// - Parameter request: The request.
  /// - Returns: The answer, whatever its status.
  /// - Throws: ``HTTPClientError`` when no complete answer arrived before the deadline.
  public func execute(_ request: HTTPClientRequest) async throws(HTTPClientError)
    -> HTTPClientResponse
  {
    let pending = PendingRequest(request: request, deadline: .now + configuration.timeout)
    let threads = threads
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if pending.attach(continuation) { threads.submit(pending) }
      }
    } onCancel: {
      pending.cancel()
    }
    return try result.get()
  }

  /// Fails queued requests, lets running ones finish, closes idle connections and lets the
  /// threads end. Later requests fail with ``HTTPClientError/Kind/shutDown``.
  public func shutDown() {
    threads.shutDown()
    runner.pool.closeAll()
  }
}
