import AppStoreServerAPI
import Chronology
import CryptoSupport
import HTTPServer

/// Answers App Store Server API requests for the world: routes, authenticates, rate-limits,
/// acts out faults, and hands each request to its endpoint.
///
/// One responder serves both listeners; each request says which environment received it.
/// Faults and latency apply to requests that passed authentication and rate limiting.
final class SimulatorResponder: Sendable {
  let state: SimulatorState
  let signed: SignedValues
  let tokens: RequestTokenVerifier
  let rateLimiter: RateLimiter
  let faults: FaultInjector
  let recorder: SimulatorRecorder
  let notifications: NotificationArchive
  let testNotifications: TestNotifications
  let notificationURLs: [SimulatedEnvironment: NotificationURL]
  let pageSize: Int
  let behaviour: UnconfirmedBehaviour
  let wallClock: @Sendable () -> Timestamp
  let productionHasRelease: Bool
  let customersWithoutAppTransaction: Set<String>
  /// How far ahead of the wall clock a `retry-after` fault's `Retry-After` lies, in ms.
  let faultRetryAfterDelay: Int64
  private let productionFactory: PayloadFactory
  private let sandboxFactory: PayloadFactory

  /// Creates the responder.
  ///
  /// - Parameters:
  ///   - configuration: the world, chain, key, limits, faults and clocks.
  ///   - tokenLog: where token changes are kept across restarts, if anywhere.
  init(configuration: SimulatorConfiguration, tokenLog: TokenChangeLog? = nil) {
    let state = SimulatorState(
      world: configuration.world, file: configuration.worldFile, clock: configuration.clock,
      tokenLog: tokenLog)
    self.state = state
    signed = SignedValues(
      chain: configuration.signingChain, cacheLimit: configuration.signedValueCacheLimit)
    tokens = RequestTokenVerifier(
      apiKey: configuration.apiKey, bundleId: configuration.world.bundleId,
      clockSkew: configuration.tokenClockSkew)
    rateLimiter = RateLimiter(limits: configuration.rateLimits)
    faults = FaultInjector(plan: configuration.faults, seed: configuration.seed)
    faultRetryAfterDelay = configuration.faults.retryAfterDelay
    recorder = SimulatorRecorder(
      capacity: configuration.requestLogCapacity, callback: configuration.requestLog)
    notifications = NotificationArchive(
      failureRate: configuration.notificationFailureRate,
      lateDeliveryShare: configuration.lateDeliveryShare,
      omissionRate: configuration.notificationOmissionRate, seed: configuration.world.seed,
      cacheLimit: configuration.signedValueCacheLimit)
    testNotifications = TestNotifications(seed: configuration.world.seed)
    notificationURLs = configuration.notificationURLs
    pageSize = configuration.pageSize
    behaviour = configuration.behaviour
    wallClock = configuration.now
    productionHasRelease = configuration.productionHasRelease
    customersWithoutAppTransaction = configuration.customersWithoutAppTransaction
    productionFactory = PayloadFactory(environment: .production, state: state)
    sandboxFactory = PayloadFactory(environment: .sandbox, state: state)
  }

  /// The notification URL the app configured for `environment`.
  func notificationURL(of environment: SimulatedEnvironment) -> NotificationURL {
    notificationURLs[environment] ?? .version2
  }

  func factory(for environment: SimulatedEnvironment) -> PayloadFactory {
    environment == .production ? productionFactory : sandboxFactory
  }

  /// Opens the configured token log and makes its changes again, before the first request.
  ///
  /// - Parameter configuration: the configuration naming the log, if any.
  /// - Returns: the responder.
  /// - Throws: `SimulatorStartError` when the log cannot be read or the world file not read.
  static func start(configuration: SimulatorConfiguration) throws(SimulatorStartError)
    -> SimulatorResponder
  {
    guard let path = configuration.tokenLogPath else {
      return SimulatorResponder(configuration: configuration)
    }
    let (log, changes) = try TokenChangeLog.open(path: path)
    let responder = SimulatorResponder(configuration: configuration, tokenLog: log)
    do {
      try responder.state.replay(changes)
    } catch {
      throw SimulatorStartError(
        "the changes of the token log \(path) cannot be made again: \(error)")
    }
    return responder
  }

  // MARK: - One request

  /// The answer to one request received by the listener of `environment`.
  func respond(to request: ServerRequest, in environment: SimulatedEnvironment) -> ServerResponse {
    var entry = SimulatorRequestLogEntry(
      sequence: 0, answeredAt: .distantPast, environment: environment,
      method: request.method.rawValue, path: request.path, endpoint: nil, status: nil)
    let response = answer(request, in: environment, logging: &entry)
    entry.answeredAt = wallClock()
    recorder.record(entry)
    return response
  }

  private func answer(
    _ request: ServerRequest, in environment: SimulatedEnvironment,
    logging entry: inout SimulatorRequestLogEntry
  ) -> ServerResponse {
    let route: SimulatorRoute
    switch SimulatorRoute.match(method: request.method, path: request.path) {
    case .success(let matched):
      route = matched
    case .failure(.notFound):
      let response = ServerResponse.text(
        "No App Store Server API endpoint has the path \(request.path).\n", status: .notFound)
      entry.status = 404
      entry.bodyBytes = response.body.count
      return response
    case .failure(.wrongMethod(let allowed)):
      var response = ServerResponse.text(
        "\(request.path) answers \(allowed), not \(request.method).\n",
        status: .methodNotAllowed)
      response.headers.add(name: "Allow", value: allowed.rawValue)
      entry.status = 405
      entry.bodyBytes = response.body.count
      return response
    }
    entry.endpoint = route.endpoint
    let wall = wallClock()

    if environment == .production && !productionHasRelease {
      return unauthorized(.noProductionRelease, logging: &entry)
    }
    switch tokens.verify(authorization: request.headers["Authorization"], now: wall) {
    case .accepted: break
    case .rejected(let reason): return unauthorized(reason, logging: &entry)
    case .missingBundleId: return finish(.error(.invalidAppIdentifier), logging: &entry)
    }

    if let retryAfter = rateLimiter.admit(route.endpoint, in: environment, at: wall) {
      var response = finish(.error(.rateLimitExceeded), logging: &entry)
      // Apple sends the instant to retry at in epoch milliseconds, not delta seconds.
      response.headers.add(name: "Retry-After", value: String(retryAfter.millisecondsSince1970))
      for field in behaviour.additionalRateLimitHeaders {
        response.headers.add(name: field.name, value: field.value)
      }
      return response
    }

    let decision = faults.decide(for: route.endpoint)
    var response: ServerResponse
    switch decision.fault {
    case .dropConnection?:
      entry.fault = .dropConnection
      response = ServerResponse(fault: .closeWithoutResponse)
    case .distantRetryAfter?:
      entry.fault = .distantRetryAfter
      response = finish(.error(.rateLimitExceeded), logging: &entry)
      response.headers.add(
        name: "Retry-After",
        value: String(wall.adding(milliseconds: faultRetryAfterDelay).millisecondsSince1970))
    case .refusedRevision? where !request.queryValues(named: "revision").isEmpty:
      entry.fault = .refusedRevision
      response = finish(.error(.invalidRevision), logging: &entry)
    case let fault? where APIErrorAnswer.fault(fault) != nil:
      entry.fault = fault
      response = finish(.error(APIErrorAnswer.fault(fault) ?? .generalInternal), logging: &entry)
    case let fault:
      var answer = endpointAnswer(route, request, in: environment)
      if let fault, apply(fault, to: &answer) { entry.fault = fault }
      response = finish(answer, logging: &entry)
      if entry.fault == .truncateBody {
        response.fault = .truncateBody(afterBytes: answer.body.count / 2)
      }
    }
    entry.delay = decision.delay
    response.delay = decision.delay
    return response
  }

  private func endpointAnswer(
    _ route: SimulatorRoute, _ request: ServerRequest, in environment: SimulatedEnvironment
  ) -> Answer {
    do {
      switch route {
      case .history(let id): return try history(id, request, in: environment)
      case .historyV1(let id):
        return try history(id, request, in: environment, version: .v1)
      case .statuses(let id): return try statuses(id, request, in: environment)
      case .transactionInfo(let id): return try transactionInfo(id, in: environment)
      case .refundHistory(let id): return try refundHistory(id, request, in: environment)
      case .orderLookup(let orderId): return try orderLookup(orderId, in: environment)
      case .appTransaction(let id): return try appTransaction(id, in: environment)
      case .notificationHistory: return try notificationHistory(request, in: environment)
      case .setAppAccountToken(let id): return setAppAccountToken(id, request, in: environment)
      case .requestTestNotification: return requestTestNotification(in: environment)
      case .testNotificationStatus(let token):
        return try testNotificationStatus(token, in: environment)
      }
    } catch let error as WorldFileError {
      return .error(.unreadableWorld(error))
    } catch let error as CryptoError {
      // Signing only fails if OpenSSL does; the client sees Apple's unknown error.
      return .error(
        APIErrorAnswer(code: 5_000_000, message: "The simulator could not sign: \(error.message)"))
    } catch {
      return .error(APIErrorAnswer(code: 5_000_000, message: "The simulator failed: \(error)"))
    }
  }

  private func finish(_ answer: Answer, logging entry: inout SimulatorRequestLogEntry)
    -> ServerResponse
  {
    entry.status = answer.status
    entry.errorCode = answer.errorCode
    entry.bodyBytes = answer.body.count
    return answer.response
  }

  private func unauthorized(
    _ reason: TokenRejection, logging entry: inout SimulatorRequestLogEntry
  ) -> ServerResponse {
    // Apple answers 401 with a plain-text body and no error code.
    let response = ServerResponse.text("Unauthenticated\n", status: .unauthorized)
    entry.status = 401
    entry.tokenRejection = reason
    entry.bodyBytes = response.body.count
    return response
  }

  // MARK: - Body faults

  /// Acts out a fault that changes the answer's body; returns whether it applied.
  func apply(_ fault: FaultKind, to answer: inout Answer) -> Bool {
    switch fault {
    case .truncateBody:
      return true
    case .malformedJSON:
      guard (200..<300).contains(answer.status), answer.body.first == UInt8(ascii: "{") else {
        return false
      }
      answer.body[0] = UInt8(ascii: "[")
      return true
    case .badSignature:
      return Self.corruptFirstSignature(in: &answer.body)
    case .extremeSignedDate:
      guard (200..<300).contains(answer.status) else { return false }
      return ExtremeSignedDate.resign(firstSignedValueIn: &answer.body, with: signed.signer)
    case .generalInternal, .generalInternalRetryable, .accountNotFoundRetryable,
      .appNotFoundRetryable, .originalTransactionIdNotFoundRetryable, .dropConnection,
      .distantRetryAfter, .refusedRevision:
      return false
    }
  }

  /// Flips one bit of the signature of the first compact JWS in a JSON body, keeping its
  /// length, so that the JWS still parses but no longer verifies.
  static func corruptFirstSignature(in body: inout [UInt8]) -> Bool {
    guard let jws = firstCompactJWS(in: body) else { return false }
    let dot = UInt8(ascii: ".")
    guard let lastDot = body[jws].lastIndex(of: dot) else { return false }
    let segment = Array(body[(lastDot + 1)..<jws.upperBound])
    guard var signature = try? Base64URL.decode(utf8: segment), !signature.isEmpty else {
      // Not a signature this simulator made; leave the body alone.
      return false
    }
    signature[0] ^= 0x01
    body.replaceSubrange(
      (lastDot + 1)..<jws.upperBound, with: Array(Base64URL.encode(signature).utf8))
    return true
  }

  /// Where the first compact JWS of a JSON body lies (inside its quotes), or `nil`.
  static func firstCompactJWS(in body: [UInt8]) -> Range<Int>? {
    // Every JWS header is base64url JSON beginning `{"`, which encodes as `eyJ`. Other strings
    // may begin so too (a history page's revision token is base64 JSON), so the first string
    // that also has the two dots of a compact JWS is the one.
    let marker = Array("\"eyJ".utf8)
    let dot = UInt8(ascii: ".")
    var searchFrom = 0
    while body.count - searchFrom > marker.count {
      guard
        let start = (searchFrom...(body.count - marker.count)).first(where: {
          body[$0..<($0 + marker.count)].elementsEqual(marker)
        }),
        let end = body[(start + 1)...].firstIndex(of: UInt8(ascii: "\""))
      else { return nil }
      searchFrom = end
      if body[(start + 1)..<end].count(where: { $0 == dot }) == 2 { return (start + 1)..<end }
    }
    return nil
  }

  // MARK: - Ids

  /// The customer an id in a path belongs to, or the error Apple answers: 4000006 when it is
  /// not shaped like a transaction id, 4040010 when this environment does not know it.
  func resolve(_ id: String, in environment: SimulatedEnvironment) -> Result<
    CustomerSnapshot, APIErrorAnswer
  > {
    guard Self.isTransactionIdShaped(id) else { return .failure(.invalidTransactionId) }
    do throws(WorldFileError) {
      guard let position = try state.customerPosition(owning: id),
        state.isKnown(position, in: environment)
      else { return .failure(.transactionIdNotFound) }
      return .success(try state.snapshot(of: position))
    } catch {
      return .failure(.unreadableWorld(error))
    }
  }

  /// Resolves the id and reads the parameters, in the configured order of precedence: the
  /// first failure is the answer.
  func resolve<Parameters>(
    _ id: String, in environment: SimulatedEnvironment,
    parameters: () -> Result<Parameters, APIErrorAnswer>
  ) -> Result<(CustomerSnapshot, Parameters), APIErrorAnswer> {
    if behaviour.errorPrecedence == .parametersFirst, case .failure(let error) = parameters() {
      return .failure(error)
    }
    let snapshot: CustomerSnapshot
    switch resolve(id, in: environment) {
    case .failure(let error): return .failure(error)
    case .success(let found): snapshot = found
    }
    switch parameters() {
    case .failure(let error): return .failure(error)
    case .success(let read): return .success((snapshot, read))
    }
  }

  /// Digits only, 1 to 20 of them: App Store transaction ids are decimal numbers.
  static func isTransactionIdShaped(_ id: String) -> Bool {
    !id.isEmpty && id.utf8.count <= 20
      && id.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }
}
