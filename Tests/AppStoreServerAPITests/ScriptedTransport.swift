import AppStoreServerAPI
import Foundation
import JSON
import Synchronization
import Testing

/// A transport that answers from a test's script and records every request it was sent.
final class ScriptedTransport: HTTPTransport {
  typealias Handler = @Sendable (HTTPRequest, Int) -> Result<HTTPResponse, TransportFailure>

  private let handler: Handler
  private let state = Mutex<(requests: [HTTPRequest], inFlight: Int, maximumInFlight: Int)>(
    ([], 0, 0))

  /// A transport calling `handler` with each request and its index (0 for the first).
  init(_ handler: @escaping Handler) {
    self.handler = handler
  }

  /// A transport that answers each request with the next response of `responses`.
  convenience init(responses: [Result<HTTPResponse, TransportFailure>]) {
    self.init { _, index in
      index < responses.count
        ? responses[index] : .failure(.other(detail: "the script has no answer \(index)"))
    }
  }

  var requests: [HTTPRequest] { state.withLock { $0.requests } }
  var maximumInFlight: Int { state.withLock { $0.maximumInFlight } }

  func send(_ request: HTTPRequest) async throws(TransportFailure) -> HTTPResponse {
    let index = state.withLock { state in
      state.requests.append(request)
      state.inFlight += 1
      state.maximumInFlight = max(state.maximumInFlight, state.inFlight)
      return state.requests.count - 1
    }
    // Let other tasks run while this request is "in flight", so concurrency is observable.
    await Task.yield()
    state.withLock { $0.inFlight -= 1 }
    return try handler(request, index).get()
  }
}

/// Answers as the App Store sends them.
enum Answer {
  static func json(_ status: Int = 200, _ build: (inout JSONWriter) -> Void) -> Result<
    HTTPResponse, TransportFailure
  > {
    var writer = JSONWriter()
    build(&writer)
    return .success(
      HTTPResponse(
        status: status, headers: ["Content-Type": "application/json"], body: writer.bytes))
  }

  static func error(
    _ status: Int, code: Int64, message: String = "An error", retryAfter: String? = nil
  ) -> Result<HTTPResponse, TransportFailure> {
    var writer = JSONWriter()
    writer.beginObject()
    writer.field("errorCode", code)
    writer.field("errorMessage", message)
    writer.endObject()
    var headers = ["Content-Type": "application/json"]
    if let retryAfter { headers["Retry-After"] = retryAfter }
    return .success(HTTPResponse(status: status, headers: headers, body: writer.bytes))
  }

  static func text(_ status: Int, _ body: String, type: String = "text/plain") -> Result<
    HTTPResponse, TransportFailure
  > {
    .success(HTTPResponse(status: status, headers: ["Content-Type": type], body: Array(body.utf8)))
  }

  static func history(
    _ transactions: [String], revision: String, hasMore: Bool,
    environment: AppStoreEnvironment = .production
  ) -> Result<HTTPResponse, TransportFailure> {
    json { writer in
      writer.beginObject()
      writer.field("revision", revision)
      writer.field("hasMore", hasMore)
      writer.field("bundleId", TestChain.bundleId)
      writer.field("appAppleId", TestChain.appAppleId)
      writer.field("environment", environment.rawValue)
      writer.key("signedTransactions")
      writer.beginArray()
      for jws in transactions { writer.value(jws) }
      writer.endArray()
      writer.endObject()
    }
  }
}

/// A client over a scripted transport, with a manual clock and fixed jitter.
struct ClientHarness {
  let clock: ManualClock
  let transport: ScriptedTransport
  let client: AppStoreServerAPIClient
  let credentials: APICredentials

  init(
    retryPolicy: RetryPolicy = .standard, rateLimits: RateLimits = .unpaced,
    maximumConcurrentRequests: Int = 16, random: Double = 0.5, clock: ManualClock = ManualClock(),
    transport: ScriptedTransport
  ) throws {
    self.clock = clock
    self.transport = transport
    credentials = try testCredentials()
    let configuration = ClientConfiguration(
      credentials: credentials, trustedRoots: [TestChain.standard.root.certificate],
      appAppleId: TestChain.appAppleId,
      baseURLOverrides: [
        .production: try #require(URL(string: "http://127.0.0.1:9/prod/")),
        .sandbox: try #require(URL(string: "http://127.0.0.1:9/sandbox")),
      ],
      retryPolicy: retryPolicy, rateLimits: rateLimits,
      maximumConcurrentRequests: maximumConcurrentRequests)
    client = try AppStoreServerAPIClient(
      configuration: configuration, transport: transport, now: { clock.now },
      sleep: { clock.sleep($0) }, random: { random }, notice: { _ in })
  }

  /// Signs a transaction with the trusted test chain.
  static func sign(_ transaction: JWSTransaction) throws -> String {
    try JWSSigner(chain: TestChain.standard).sign(transaction)
  }
}

/// The query items of a request URL, in order.
func queryItems(_ request: HTTPRequest) -> [String] {
  (URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQueryItems ?? [])
    .map { "\($0.name)=\($0.value ?? "")" }
}

/// The API error `body` throws; records an issue and throws when it throws nothing or another
/// error.
func requireAPIError(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async throws -> AppStoreAPIError {
  do {
    try await body()
  } catch let error as AppStoreAPIError {
    return error
  }
  Issue.record("expected an AppStoreAPIError, nothing was thrown", sourceLocation: sourceLocation)
  throw CancellationError()
}

extension RateLimits {
  /// Limits so high that pacing never waits, for tests about other things.
  static let unpaced = RateLimits(
    production: Dictionary(uniqueKeysWithValues: Endpoint.allCases.map { ($0, 1e9) }),
    sandbox: Dictionary(uniqueKeysWithValues: Endpoint.allCases.map { ($0, 1e9) }))
}

extension JSONWriter {
  /// Writes `"name": ["a", "b", ...]`.
  mutating func stringArray(_ name: String, _ values: [String]) {
    key(name)
    beginArray()
    for element in values { value(element) }
    endArray()
  }
}
