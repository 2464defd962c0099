import AppStoreServerAPI
import AppStoreSimulator
import CryptoSupport
import Foundation
import Testing

@Suite("Simulator server: request tokens are checked like Apple checks them")
struct ServerAuthenticationTests {
  typealias World = HandBuiltWorld

  /// A way to spoil a token, and the reason the simulator must give.
  enum Flaw: String, CaseIterable, Sendable {
    case otherKey, wrongKeyId, wrongIssuer, wrongAudience, wrongBundleId, lifetimeOverAnHour
    case expired, issuedInTheFuture, otherAlgorithm, timesNotNumbers, issuedAtNotNumber
    case noIssuedAtExpiringOverAnHourAhead, noIssuedAtExpired, noIssuedAtNoExpiry

    var reason: TokenRejection {
      switch self {
      case .otherKey: .badSignature
      case .wrongKeyId: .unknownKeyId
      case .wrongIssuer: .wrongIssuer
      case .wrongAudience: .wrongAudience
      case .wrongBundleId: .wrongBundleId
      case .lifetimeOverAnHour: .lifetimeTooLong
      case .expired: .expired
      case .issuedInTheFuture: .issuedInFuture
      case .otherAlgorithm: .unsupportedAlgorithm
      case .timesNotNumbers, .issuedAtNotNumber, .noIssuedAtNoExpiry: .missingTimes
      case .noIssuedAtExpiringOverAnHourAhead: .lifetimeTooLong
      case .noIssuedAtExpired: .expired
      }
    }

    func token(now: Int64) throws -> String {
      var factory = TokenFactory()
      var issuedAt = now
      switch self {
      case .otherKey: factory.key = try P256PrivateKey.generate()
      case .wrongKeyId: factory.header["kid"] = "OTHERKEY01"
      case .wrongIssuer: factory.claims["iss"] = "57246542-96fe-1a63-e053-0824d011072a"
      case .wrongAudience: factory.claims["aud"] = "appstoreconnect-v2"
      case .wrongBundleId: factory.claims["bid"] = "com.other.app"
      case .lifetimeOverAnHour: factory.lifetime = 3601
      case .expired: issuedAt = now - 301
      case .issuedInTheFuture: issuedAt = now + 61
      case .otherAlgorithm: factory.header["alg"] = "HS256"
      case .timesNotNumbers: factory.claims["exp"] = "later"
      case .issuedAtNotNumber: factory.claims["iat"] = "earlier"
      case .noIssuedAtExpiringOverAnHourAhead:
        factory.omitsIssuedAt = true
        factory.claims["exp"] = now + 3600 + 61
      case .noIssuedAtExpired:
        factory.omitsIssuedAt = true
        factory.claims["exp"] = now
      case .noIssuedAtNoExpiry:
        factory.omitsIssuedAt = true
        factory.claims["exp"] = NSNull()
      }
      return try factory.token(issuedAt: issuedAt)
    }
  }

  @Test(
    "a spoiled token is answered 401 in plain text, with the reason logged",
    arguments: Flaw.allCases)
  func rejected(_ flaw: Flaw) async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let token = try flaw.token(now: harness.clock.now.secondsSince1970)
    let answer = try await harness.raw(
      "GET", "/inApps/v2/history/\(World.subscriptionOriginal)", token: token)
    #expect(answer.status == 401)
    #expect(String(decoding: answer.body, as: UTF8.self) == "Unauthenticated\n")
    #expect(answer[header: "Content-Type"]?.hasPrefix("text/plain") == true)
    #expect(SimulatorHarness.errorCode(of: answer) == nil)
    let counters = harness.server.statistics().counters(for: .transactionHistory)
    #expect(counters.tokenRejections == [flaw.reason: 1])
    let entry = try #require(harness.server.requestLog().last)
    #expect(entry.tokenRejection == flaw.reason)
    #expect(!entry.description.contains(token))
  }

  @Test("no token, another scheme, or garbage is 401")
  func missingOrGarbage() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let path = "/inApps/v1/subscriptions/\(World.subscriptionOriginal)"
    let missing = try await harness.raw("GET", path, token: .some(nil))
    #expect(missing.status == 401)
    for garbage in ["abc", "a.b.c", "....", ""] {
      let answer = try await harness.raw("GET", path, token: garbage)
      #expect(answer.status == 401, "\(garbage)")
    }
    let rejections = harness.server.statistics().counters(for: .subscriptionStatuses)
      .tokenRejections
    #expect(rejections[.missingToken] == 2)
    #expect(rejections[.malformed] == 3)
  }

  @Test("a token without bid is 400 with 4000002, as Apple answers")
  func missingBundleId() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    var factory = TokenFactory()
    factory.claims["bid"] = nil
    let answer = try await harness.raw(
      "GET", "/inApps/v2/history/\(World.subscriptionOriginal)",
      token: try factory.token(issuedAt: harness.clock.now.secondsSince1970))
    #expect(answer.status == 400)
    #expect(SimulatorHarness.errorCode(of: answer) == 4_000_002)
  }

  @Test(
    "the limits are accepted: a 60-minute lifetime, an iat 60 s ahead, an aud array, no iat (as Apple's libraries sign) with exp up to 61 minutes ahead"
  )
  func boundaries() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let now = harness.clock.now.secondsSince1970
    var hour = TokenFactory()
    hour.lifetime = 3600
    var ahead = TokenFactory()
    ahead.lifetime = 600
    var array = TokenFactory()
    array.claims["aud"] = ["appstoreconnect-v1"]
    var withoutIssuedAt = TokenFactory()
    withoutIssuedAt.omitsIssuedAt = true
    withoutIssuedAt.lifetime = 300
    var withoutIssuedAtAtTheLimit = TokenFactory()
    withoutIssuedAtAtTheLimit.omitsIssuedAt = true
    withoutIssuedAtAtTheLimit.lifetime = 3600 + 60
    for token in [
      try hour.token(issuedAt: now), try ahead.token(issuedAt: now + 60),
      try array.token(issuedAt: now), try withoutIssuedAt.token(issuedAt: now),
      try withoutIssuedAtAtTheLimit.token(issuedAt: now),
    ] {
      let answer = try await harness.raw(
        "GET", "/inApps/v2/history/\(World.subscriptionOriginal)", token: token)
      #expect(answer.status == 200)
    }
  }

  @Test("a token accepted once is refused once it expires by the wall clock")
  func expiryOfAKnownToken() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let token = try harness.validToken()
    let path = "/inApps/v2/history/\(World.subscriptionOriginal)"
    #expect(try await harness.raw("GET", path, token: token).status == 200)
    harness.clock.advance(by: 299_000)
    #expect(try await harness.raw("GET", path, token: token).status == 200)
    harness.clock.advance(by: 1_000)
    #expect(try await harness.raw("GET", path, token: token).status == 401)
  }

  @Test("the real client with another key is unauthorized after re-signing once")
  func clientWithTheWrongKey() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let stranger = try SimulatorTestKey.generate(bundleId: World.world.bundleId)
    let client = try AppStoreServerAPIClient(
      configuration: ClientConfiguration(
        credentials: stranger.credentials, trustedRoots: [ServerFixture.chain.root.certificate],
        appAppleId: World.world.appAppleId, baseURLOverrides: harness.server.baseURLOverrides),
      now: harness.clock.reader, sleep: { _ in }, notice: { _ in })
    await #expect {
      _ = try await client.transactionHistory(World.subscriptionOriginal, environment: .production)
    } throws: { ($0 as? AppStoreAPIError)?.kind == .unauthorized }
    #expect(harness.server.statistics().counters(for: .transactionHistory).statuses == [401: 2])
  }

  @Test("an app without a production release gets 401 from production, answers from sandbox")
  func noProductionRelease() async throws {
    let harness = try SimulatorHarness.start(world: World.world) { $0.productionHasRelease = false }
    defer { harness.stop() }
    await #expect {
      _ = try await harness.client.transactionHistory(
        World.subscriptionOriginal, environment: .production)
    } throws: { ($0 as? AppStoreAPIError)?.kind == .unauthorized }
    let sandbox = try await harness.client.transactionHistory(
      World.testerTransaction, environment: .sandbox)
    #expect(sandbox.transactions.count == 1)
  }
}
