import Chronology
import CryptoSupport
import Foundation
import JSON

/// The App Store Server API client: signs requests, paces them per endpoint, bounds concurrency,
/// retries what may be retried, and verifies every signed value before a caller sees it.
///
/// One client is shared by all tasks of a run (up to ~64 at once): the token, the rate limiter,
/// the concurrency limiter, the environment memory and the counters are shared and thread-safe.
/// So is the verdict on the credentials: once a 401 survives a freshly signed token, no further
/// request is sent to that environment (``CredentialVerdicts``), and a run stops within its
/// concurrency plus one request.
///
/// Time is injected (`now`, `sleep`, `random`), so tests run without waiting and without the
/// wall clock.
public final class AppStoreServerAPIClient: Sendable {
  /// The configuration the client was made with.
  public let configuration: ClientConfiguration

  /// Requests, outcomes, retries and errors per endpoint, for run reports.
  public let counters = RequestCounters()

  /// The shared per-endpoint pacing.
  public let rateLimiter: EndpointRateLimiter

  /// The shared bound on requests in flight.
  public let concurrencyLimiter: ConcurrencyLimiter

  /// The environment each customer id was found in.
  public let environments = EnvironmentResolver()

  /// Whether the App Store refused this client's credentials, per environment.
  private let credentials = CredentialVerdicts()

  private let transport: any HTTPTransport
  private let tokens: BearerTokenProvider
  private let productionVerifier: SignedDataVerifier
  private let now: @Sendable () -> Timestamp
  private let sleep: @Sendable (Int64) async throws -> Void
  private let random: @Sendable () -> Double
  private let isStopping: (@Sendable () -> Bool)?

  /// How often a wait looks at the caller's stop request (``init(configuration:transport:now:sleep:random:isStopping:notice:)``):
  /// a wait of any length ends within this many milliseconds of the request.
  public static let stopCheckInterval: Int64 = 100

  /// A client for `configuration`.
  ///
  /// - Parameters:
  ///   - configuration: Credentials, trust, URLs and limits.
  ///   - transport: Sends HTTP requests; tests pass a scripted one. `nil` for the one
  ///     ``HTTPClientChoice/fromEnvironment(_:)`` names: ``SocketHTTPTransport`` unless
  ///     `RECEIPT_MIGRATE_HTTP_CLIENT=urlsession`.
  ///   - now: The wall clock.
  ///   - sleep: Waits a number of milliseconds (back-off, rate limiting).
  ///   - random: Numbers in `0..<1` for jitter.
  ///   - isStopping: Whether the caller wants its work to stop (a signal arrived), asked in the
  ///     calling task; `nil` when nothing can ask. Once it says yes, no new attempt is sent, and
  ///     a wait of any length — back-off, `Retry-After`, a turn at the rate limiter — ends within
  ///     ``stopCheckInterval`` with ``AppStoreAPIError/Kind/cancelled``. Requests already sent
  ///     finish, within the transport's timeout.
  ///   - notice: Receives the warning about a trusted root that is not Apple's.
  /// - Throws: ``ConfigurationError`` for a token lifetime out of range, no trusted root, roots
  ///   OpenSSL cannot use, or an unknown `RECEIPT_MIGRATE_HTTP_CLIENT`.
  public init(
    configuration: ClientConfiguration, transport: (any HTTPTransport)? = nil,
    now: @escaping @Sendable () -> Timestamp = SystemTime.now,
    sleep: @escaping @Sendable (Int64) async throws -> Void = SystemTime.sleep(milliseconds:),
    random: @escaping @Sendable () -> Double = SystemTime.random,
    isStopping: (@Sendable () -> Bool)? = nil,
    notice: @Sendable (String) -> Void = SignedDataVerifier.printNoticeOnce
  ) throws(ConfigurationError) {
    self.isStopping = isStopping
    self.configuration = configuration
    if let transport {
      self.transport = transport
    } else {
      self.transport = try HTTPClientChoice.fromEnvironment().makeTransport()
    }
    self.now = now
    self.sleep = sleep
    self.random = random
    tokens = BearerTokenProvider(
      signer: try JWTSigner(
        credentials: configuration.credentials, lifetime: configuration.tokenLifetime),
      now: now)
    productionVerifier = try SignedDataVerifier(
      trustedRoots: configuration.trustedRoots, bundleId: configuration.credentials.bundleId,
      appAppleId: configuration.appAppleId, environment: .production, now: now, notice: notice)
    rateLimiter = EndpointRateLimiter(limits: configuration.rateLimits, now: now)
    concurrencyLimiter = ConcurrencyLimiter(maximum: configuration.maximumConcurrentRequests)
  }

  /// The verifier for data from `environment`, sharing the client's chain cache.
  ///
  /// - Parameter environment: The environment payloads must come from.
  /// - Returns: The verifier.
  public func verifier(for environment: AppStoreEnvironment) -> SignedDataVerifier {
    productionVerifier.verifying(environment: environment)
  }

  /// Runs `operation` in the environment that knows `id` (see ``EnvironmentResolver``).
  ///
  /// - Parameters:
  ///   - id: The customer's transaction id.
  ///   - hint: The environment to try first when none is remembered.
  ///   - operation: The calls to make, given the environment.
  /// - Returns: The result and the environment that answered.
  /// - Throws: ``AppStoreAPIError``, including ``AppStoreAPIError/Kind/notFoundInAnyEnvironment(tried:)``.
  public func resolvingEnvironment<Value: Sendable>(
    for id: String, hint: AppStoreEnvironment? = nil,
    _ operation: (AppStoreEnvironment) async throws(AppStoreAPIError) -> Value
  ) async throws(AppStoreAPIError) -> EnvironmentResolution<Value> {
    try await environments.resolve(id: id, hint: hint, operation)
  }

  // MARK: - Requests

  /// A request the client sends, before authorization.
  struct Call {
    let endpoint: Endpoint
    let method: String
    let path: String
    var query: [(name: String, value: String)] = []
    var body: [UInt8]? = nil
    let environment: AppStoreEnvironment
    let requestedId: String?
  }

  /// Sends `call` until it succeeds and `decode` accepts the body, or a failure may not be
  /// retried, or a wait for the next attempt would pass the policy's longest wait or the
  /// caller's ``RequestDeadline``.
  func perform<Value>(
    _ call: Call, decode: ([UInt8], SignedDataVerifier) throws(ResponseDecodingFailure) -> Value
  ) async throws(AppStoreAPIError) -> Value {
    let request = try makeRequest(call)
    let verifier = verifier(for: call.environment)
    var attempt = 0
    var renewedToken = false
    // Whether this call is the probe of the credentials (see ``CredentialVerdicts``); a probe
    // that ends without an answer proves nothing, and must not leave the others waiting.
    var probing = false
    defer { if probing { credentials.settle(call.environment, refused: false) } }
    while true {
      attempt += 1
      if isStopping?() == true { throw error(.cancelled, call) }
      let failure: AppStoreAPIError
      let outcome = await attemptOnce(call, request: request, isProbe: probing)
      let isUnauthorized: Bool
      if case .failure(let error) = outcome.result, error.kind == .unauthorized {
        isUnauthorized = true
      } else {
        isUnauthorized = false
      }
      if probing {
        probing = false
        credentials.settle(call.environment, refused: isUnauthorized)
      } else if outcome.openedProbe && renewedToken {
        // A token signed after an earlier 401 was refused as well: that is the verdict.
        credentials.settle(call.environment, refused: true)
      }
      switch outcome.result {
      case .success(let response):
        do {
          let value = try decode(response.body, verifier)
          rateLimiter.recordSuccess(call.endpoint, in: call.environment)
          counters.record(call.endpoint) { $0.successes += 1 }
          return value
        } catch {
          failure = self.failure(decoding: error, of: response, call)
        }
      case .failure(let error) where error.kind == .unauthorized && !renewedToken:
        // An expired or rejected token is re-signed once; a second 401 is a configuration error.
        // Of the requests that got a 401 together, one tries the fresh token; the others wait
        // for its verdict rather than each spending a request on the same question.
        renewedToken = true
        if outcome.openedProbe {
          probing = true
        } else if await credentials.verdict(in: call.environment) == .refused {
          counters.record(call.endpoint) { $0.failures += 1 }
          throw error
        }
        attempt -= 1
        continue
      case .failure(let error):
        failure = error
      }
      if failure.httpStatus == 429 {
        rateLimiter.recordRateLimited(
          call.endpoint, in: call.environment, retryAfter: failure.retryAfter)
      }
      if case .waitRefused = failure.kind {
        counters.record(call.endpoint) { $0.failures += 1 }
        throw failure
      }
      let instant = now()
      let delay: Int64
      switch configuration.retryPolicy.decision(
        after: failure, attempt: attempt, now: instant, random: random())
      {
      case .giveUp:
        counters.record(call.endpoint) { $0.failures += 1 }
        throw failure
      case .waitTooLong(let until):
        counters.record(call.endpoint) { $0.failures += 1 }
        throw error(.waitRefused(until: until, limit: longestWaitText), call, retryAfter: until)
      case .retry(let milliseconds):
        delay = milliseconds
      }
      if let deadline = RequestDeadline.current,
        instant.adding(milliseconds: delay) > deadline.instant
      {
        counters.record(call.endpoint) { $0.failures += 1 }
        throw error(
          .waitRefused(until: instant.adding(milliseconds: delay), limit: text(of: deadline)),
          call, retryAfter: failure.retryAfter)
      }
      counters.record(call.endpoint) { $0.retries += 1 }
      try await wait(delay, call)
    }
  }

  /// Waits `milliseconds`, or less when the caller asks to stop (then throws `cancelled`).
  ///
  /// With a stop hook the wait is taken in slices of ``stopCheckInterval``, asking between
  /// them; without one, nothing could cut it short, and it is one sleep.
  private func wait(_ milliseconds: Int64, _ call: Call) async throws(AppStoreAPIError) {
    guard let isStopping else {
      do {
        try await sleep(milliseconds)
      } catch {
        throw self.error(.cancelled, call)
      }
      return
    }
    var left = milliseconds
    repeat {
      if isStopping() { throw error(.cancelled, call) }
      let slice = min(left, Self.stopCheckInterval)
      do {
        try await sleep(slice)
      } catch {
        throw self.error(.cancelled, call)
      }
      left -= slice
    } while left > 0
  }

  /// The longest wait of the policy, as messages name it.
  private var longestWaitText: String {
    let minutes = configuration.retryPolicy.maximumRetryAfterWait / 60_000
    return "the longest wait this client accepts (\(minutes) minutes)"
  }

  private func text(of deadline: RequestDeadline) -> String {
    "\(deadline.name), which ends at \(deadline.instant)"
  }

  /// Waits for the endpoint's next slot at the rate limiter, unless that slot (held back by a
  /// 429's `Retry-After`) lies beyond the policy's longest wait or the caller's deadline.
  private func waitForTurn(_ call: Call) async throws(AppStoreAPIError) {
    let instant = now()
    var latest = instant.adding(milliseconds: configuration.retryPolicy.maximumRetryAfterWait)
    var limit = longestWaitText
    if let deadline = RequestDeadline.current, deadline.instant < latest {
      latest = deadline.instant
      limit = text(of: deadline)
    }
    switch rateLimiter.reserve(call.endpoint, in: call.environment, notAfter: latest) {
    case .tooLate(let slot):
      throw error(.waitRefused(until: slot, limit: limit), call, retryAfter: slot)
    case .granted(let slot):
      let wait = slot.milliseconds(since: now())
      if wait > 0 { try await self.wait(wait, call) }
    }
  }

  /// What one attempt came to, and whether its 401 opened the probe of the credentials.
  private struct Attempt {
    var result: Result<HTTPResponse, AppStoreAPIError>
    var openedProbe = false
  }

  /// One attempt: wait for a slot and a permit, authorize, send, classify.
  ///
  /// While the credentials are being probed in the call's environment, only the probe is sent;
  /// once they were refused, nothing is.
  private func attemptOnce(_ call: Call, request: HTTPRequest, isProbe: Bool) async -> Attempt {
    do throws(AppStoreAPIError) {
      try await waitForTurn(call)
    } catch {
      return Attempt(result: .failure(error))
    }
    admitted: while true {
      do {
        try await concurrencyLimiter.acquire()
      } catch {
        return Attempt(result: .failure(self.error(.cancelled, call)))
      }
      switch credentials.admission(in: call.environment, isProbe: isProbe) {
      case .send:
        break admitted
      case .refused:
        concurrencyLimiter.release()
        return Attempt(result: .failure(error(.unauthorized, call)))
      case .wait:
        // The permit goes back while waiting, so that the probe can be sent.
        concurrencyLimiter.release()
        _ = await credentials.verdict(in: call.environment)
        if isStopping?() == true { return Attempt(result: .failure(error(.cancelled, call))) }
      }
    }
    defer { concurrencyLimiter.release() }
    // A stop asked while this call waited for a permit: the request is not sent.
    if isStopping?() == true { return Attempt(result: .failure(error(.cancelled, call))) }
    let token: BearerToken
    do {
      token = try tokens.token()
    } catch {
      return Attempt(
        result: .failure(
          self.error(
            .invalidRequest("the request token cannot be signed: \(error.message)"), call)))
    }
    var authorized = request
    authorized.headers["Authorization"] = token.authorizationHeaderValue
    counters.record(call.endpoint) { $0.requests += 1 }
    let response: HTTPResponse
    do {
      response = try await transport.send(authorized)
    } catch {
      counters.record(call.endpoint) { $0.transportErrors += 1 }
      return Attempt(result: .failure(self.error(.transport(error), call)))
    }
    guard (200..<300).contains(response.status) else {
      let failure = classify(response, call)
      var openedProbe = false
      if failure.kind == .unauthorized {
        tokens.invalidate(token)
        // Noted while the permit is still held, so no request slips out before the probe.
        openedProbe = credentials.noteRejection(in: call.environment)
      }
      counters.record(call.endpoint) { counts in
        counts.errorsByStatus[response.status, default: 0] += 1
        if let code = failure.errorCode { counts.errorsByCode[code.rawValue, default: 0] += 1 }
        if response.status == 429 { counts.rateLimited += 1 }
      }
      return Attempt(result: .failure(failure), openedProbe: openedProbe)
    }
    return Attempt(result: .success(response))
  }

  private func makeRequest(_ call: Call) throws(AppStoreAPIError) -> HTTPRequest {
    guard let base = configuration.baseURL(for: call.environment) else {
      throw error(
        .invalidRequest(
          "no base URL is configured for the \(call.environment.rawValue) environment"), call)
    }
    var text = base.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    text += call.path
    if !call.query.isEmpty {
      text +=
        "?"
        + call.query.map {
          "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))"
        }
        .joined(separator: "&")
    }
    guard let url = URL(string: text) else {
      throw error(.invalidRequest("the URL \(text) is not valid"), call)
    }
    var headers = [
      "Accept": "application/json",
      "User-Agent": configuration.userAgent,
    ]
    if call.body != nil { headers["Content-Type"] = "application/json" }
    return HTTPRequest(method: call.method, url: url, headers: headers, body: call.body)
  }

  // MARK: - Failures

  private func error(
    _ kind: AppStoreAPIError.Kind, _ call: Call, retryAfter: Timestamp? = nil
  ) -> AppStoreAPIError {
    AppStoreAPIError(
      kind, endpoint: call.endpoint, environment: call.environment,
      requestedId: call.requestedId, retryAfter: retryAfter)
  }

  /// The error an answer with a non-2xx status stands for.
  private func classify(_ response: HTTPResponse, _ call: Call) -> AppStoreAPIError {
    let retryAfter = RetryAfterHeader.instant(from: response[header: "Retry-After"], now: now())
    if response.status == 401 { return error(.unauthorized, call, retryAfter: retryAfter) }
    var code: Int64?
    var message: String?
    let parsed: Bool
    do {
      try JSONReader.reading(response.body) { reader throws(JSONError) in
        try reader.beginObject()
        while let key = try reader.nextKey() {
          switch key {
          case "errorCode": code = try reader.readLenientInt64()
          case "errorMessage":
            // Scrubbed before it is cut: a cut could leave half a token unrecognised.
            message = try reader.readLenientString().map {
              String(SecretScrubber.scrub($0).prefix(300))
            }
          default: try reader.skipValue()
          }
        }
      }
      parsed = true
    } catch {
      parsed = false
    }
    if parsed || response.status == 429 {
      let kind = AppStoreAPIError.Kind.server(
        status: response.status, code: code.map(APIErrorCode.init(rawValue:)), message: message)
      return error(kind, call, retryAfter: retryAfter)
    }
    let type = response[header: "Content-Type"].map { " of type \(SecretScrubber.scrub($0))" } ?? ""
    return error(
      .malformedResponse(
        status: response.status,
        reason: "the error body (\(response.body.count) bytes\(type)) is not Apple's JSON error"),
      call, retryAfter: retryAfter)
  }

  /// The error a 2xx body that could not be decoded or verified stands for.
  private func failure(
    decoding failure: ResponseDecodingFailure, of response: HTTPResponse, _ call: Call
  ) -> AppStoreAPIError {
    switch failure {
    case .json(let jsonError):
      if jsonError.kind == .unexpectedEnd {
        // A body cut inside a value was lost in transit: retry it like a reset connection.
        counters.record(call.endpoint) { $0.transportErrors += 1 }
        return error(
          .transport(.truncatedBody(detail: "JSON ended at byte \(jsonError.offset)")), call)
      }
      return error(
        .malformedResponse(
          status: response.status, reason: "the body is not the expected JSON: \(jsonError)"),
        call)
    case .shape(let reason):
      return error(.malformedResponse(status: response.status, reason: reason), call)
    case .verification(let verification):
      counters.record(call.endpoint) { $0.verificationFailures += 1 }
      return error(.verificationFailed(verification), call)
    }
  }
}
