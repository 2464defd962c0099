import Synchronization

/// Runs one request on a worker thread: takes a pooled connection or opens one, writes the
/// request, reads the answer, and returns the connection to the pool when it may carry another.
///
/// A request that finds its reused connection closed before any byte of the answer arrived is
/// sent once more on a new connection when it is idempotent. The server may close an idle
/// connection at any moment, also just as a request goes out; that race is no failure of the
/// request. A new connection that fails is never retried here: retries with back-off are the
/// caller's policy.
final class RequestRunner: Sendable {
  let configuration: HTTPClientConfiguration
  let pool: ConnectionPool
  private let tls = Mutex<Result<TLSContext, HTTPClientError>?>(nil)
  private let counters = Mutex(HTTPClientStatistics())

  init(configuration: HTTPClientConfiguration) {
    self.configuration = configuration
    pool = ConnectionPool(
      maximumPerOrigin: configuration.maximumIdleConnectionsPerHost,
      lifetime: configuration.idleConnectionLifetime)
  }

  /// The figures so far.
  var statistics: HTTPClientStatistics { counters.withLock { $0 } }

  /// Runs `pending` and resumes its caller.
  func run(_ pending: PendingRequest) {
    pending.finish(Result { () throws(HTTPClientError) in try exchange(pending) })
  }

  private func exchange(_ pending: PendingRequest) throws(HTTPClientError) -> HTTPClientResponse {
    let request = pending.request
    guard request.scheme == "http" || request.scheme == "https", !request.host.isEmpty else {
      throw HTTPClientError(
        .invalidRequest,
        "cannot send to \(request.scheme)://\(request.host): only http and https URLs with a "
          + "host are supported")
    }
    let origin = Origin(scheme: request.scheme, host: request.host, port: request.port)
    let bytes = try RequestSerializer.bytes(of: request, origin: origin)
    var retried = false
    while true {
      let reused = retried ? nil : pool.checkout(origin)
      let connection: Connection
      if let reused {
        connection = reused
      } else {
        connection = try open(origin, until: pending.deadline)
      }
      do throws(HTTPClientError) {
        try connection.write(bytes, until: pending.deadline)
        var reader = ResponseReader(
          connection: connection, deadline: pending.deadline,
          maximumBytes: configuration.maximumResponseBytes)
        let outcome = try reader.read(method: request.method)
        connection.exchanges += 1
        counters.withLock { counters in
          counters.responses += 1
          if reused != nil { counters.requestsOnReusedConnections += 1 }
        }
        if outcome.isReusable { pool.checkin(connection) }
        return outcome.response
      } catch {
        guard reused != nil, !retried, request.isIdempotent, error.kind == .connectionClosed,
          !error.receivedAnswerBytes
        else { throw error }
        // The stale connection is dropped; the next turn opens a new one.
        retried = true
        counters.withLock { $0.retriesAfterStaleConnection += 1 }
      }
    }
  }

  private func open(_ origin: Origin, until deadline: ContinuousClock.Instant)
    throws(HTTPClientError) -> Connection
  {
    let connection = try Connection(
      to: origin, tlsContext: origin.usesTLS ? try tlsContext() : nil, until: deadline)
    counters.withLock { $0.connectionsOpened += 1 }
    return connection
  }

  /// The TLS context, made on first use so that a client that never speaks https never loads
  /// the trust store.
  private func tlsContext() throws(HTTPClientError) -> TLSContext {
    let result = tls.withLock { cached in
      if let cached { return cached }
      let made = Result { () throws(HTTPClientError) in
        try TLSContext(additionalTrustedPEM: configuration.additionalTrustedCertificatesPEM)
      }
      cached = made
      return made
    }
    return try result.get()
  }
}
