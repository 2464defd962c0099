import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import CryptoSupport
import Foundation
import JSON
import LegacyReceipts
import Synchronization
import Testing

/// What the server tests share: one generated world, one signing chain and one API key (making
/// keys and certificates is the slowest part of setting up).
enum ServerFixture {
  /// A small generated world: a few hundred customers of every archetype.
  static let world = WorldGenerator().generate(accounts: 250, seed: 42)

  /// The chain every test server signs with.
  static let chain: CertificateAuthorityChain = {
    do {
      return try SimulatorSetup.makeChain(covering: world.now)
    } catch {
      fatalError("the test signing chain cannot be generated: \(error)")
    }
  }()

  /// The API key every test client signs with.
  static let key: SimulatorTestKey = {
    do {
      return try SimulatorTestKey.generate(bundleId: world.bundleId)
    } catch {
      fatalError("the test API key cannot be generated: \(error)")
    }
  }()

  /// The wall-clock instant tests start at (unrelated to the world's clock, as in real life).
  static let wallStart: Int64 = 1_800_000_000_000

  /// Customers the App Store knows in `environment`.
  static func customers(in environment: SimulatedEnvironment, of world: World = world)
    -> [Customer]
  {
    world.customers.filter { $0.environment == environment && !$0.isForgotten }
  }
}

/// A wall clock tests move by hand; `sleep` advances it at once, so client back-off and
/// `Retry-After` waits take no time.
final class TestClock: Sendable {
  private let milliseconds: Mutex<Int64>

  init(_ start: Int64 = ServerFixture.wallStart) {
    milliseconds = Mutex(start)
  }

  var now: Timestamp { Timestamp(millisecondsSince1970: milliseconds.withLock { $0 }) }

  func advance(by delta: Int64) {
    milliseconds.withLock { $0 += delta }
  }

  var reader: @Sendable () -> Timestamp { { self.now } }
}

/// A running simulator with a client pointed at it.
struct SimulatorHarness {
  let server: SimulatorServer
  let client: AppStoreServerAPIClient
  let clock: TestClock

  var world: World { server.configuration.world }
  var now: Timestamp { world.now }

  /// Starts a server for `world` (the shared one by default) with limits off unless the test
  /// configures them, and a client with generous limits and instant retries.
  static func start(
    world: World = ServerFixture.world, clock: TestClock = TestClock(),
    retryPolicy: RetryPolicy = .standard,
    configure: (inout SimulatorConfiguration) -> Void = { _ in }
  ) throws -> SimulatorHarness {
    var configuration = SimulatorConfiguration(
      world: world, signingChain: ServerFixture.chain, apiKey: ServerFixture.key.apiKey,
      now: clock.reader)
    configuration.rateLimits = .off
    configure(&configuration)
    let server = try SimulatorServer.start(configuration: configuration)
    let fast = Dictionary(uniqueKeysWithValues: Endpoint.allCases.map { ($0, 100_000.0) })
    let client = try AppStoreServerAPIClient(
      configuration: ClientConfiguration(
        credentials: ServerFixture.key.credentials,
        trustedRoots: [ServerFixture.chain.root.certificate], appAppleId: world.appAppleId,
        baseURLOverrides: server.baseURLOverrides, retryPolicy: retryPolicy,
        rateLimits: RateLimits(production: fast, sandbox: fast),
        maximumConcurrentRequests: 16),
      transport: SocketHTTPTransport(timeout: 20, maximumConnectionsPerHost: 8), now: clock.reader,
      sleep: { milliseconds in clock.advance(by: milliseconds) }, random: { 0.5 },
      notice: { _ in })
    return SimulatorHarness(server: server, client: client, clock: clock)
  }

  func stop() {
    server.stop()
  }

  // MARK: - Raw requests

  /// A request token signed with the shared key, valid for five minutes from the clock's now.
  func validToken() throws -> String {
    try TokenFactory().token(issuedAt: clock.now.secondsSince1970)
  }

  /// Sends a request exactly as given, with `token` (a valid one by default).
  func raw(
    _ method: String, _ path: String, query: String = "", body: String? = nil,
    environment: SimulatedEnvironment = .production, token: String?? = .none
  ) async throws -> AppStoreServerAPI.HTTPResponse {
    let url = try #require(
      URL(
        string: server.url(for: environment).absoluteString + path
          + (query.isEmpty ? "" : "?" + query)))
    var headers = ["Accept": "application/json"]
    let chosen: String? =
      switch token {
      case .none: try validToken()
      case .some(let explicit): explicit
      }
    if let chosen { headers["Authorization"] = "Bearer \(chosen)" }
    if body != nil { headers["Content-Type"] = "application/json" }
    return try await Self.rawTransport.send(
      AppStoreServerAPI.HTTPRequest(
        method: method, url: url, headers: headers, body: body.map { Array($0.utf8) }))
  }

  /// One transport for every raw request of every test: a client per request would open and
  /// close sockets by the thousand in a test process that also starts child processes.
  static let rawTransport = SocketHTTPTransport(timeout: 20, maximumConnectionsPerHost: 8)

  /// The `errorCode` of a JSON error body.
  static func errorCode(of response: AppStoreServerAPI.HTTPResponse) -> Int64? {
    guard case .object(let members)? = try? JSONValue(parsing: response.body),
      case .number(let text)? = members.first(where: { $0.key == "errorCode" })?.value
    else { return nil }
    return Int64(text)
  }
}

/// Makes request tokens, including deliberately wrong ones.
struct TokenFactory {
  var key: P256PrivateKey = ServerFixture.key.privateKey
  var header: [String: Any] = ["alg": "ES256", "kid": ServerFixture.key.keyId, "typ": "JWT"]
  var claims: [String: Any] = [
    "iss": ServerFixture.key.issuerId, "aud": "appstoreconnect-v1",
    "bid": ServerFixture.world.bundleId,
  ]
  var lifetime: Int64 = 300
  /// Leaves `iat` out, as Apple's Python and Java libraries sign their tokens.
  var omitsIssuedAt = false

  func token(issuedAt: Int64) throws -> String {
    var claims = claims
    if claims["iat"] == nil, !omitsIssuedAt { claims["iat"] = issuedAt }
    if claims["exp"] == nil { claims["exp"] = issuedAt + lifetime }
    let headerJSON = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
    let claimsJSON = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
    let input = Base64URL.encode(headerJSON) + "." + Base64URL.encode(claimsJSON)
    return input + "." + Base64URL.encode(try key.signature(for: input.utf8))
  }
}

extension AppStoreAPIError {
  /// The error code of a server error, as a number.
  var code: Int64? { errorCode?.rawValue }
}
