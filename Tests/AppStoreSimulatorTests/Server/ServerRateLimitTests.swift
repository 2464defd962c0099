import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Foundation
import Testing

@Suite("Simulator server: rate limits answer 429 with Retry-After in epoch milliseconds")
struct ServerRateLimitTests {
  typealias World = HandBuiltWorld
  static let historyPath = "/inApps/v2/history/\(World.subscriptionOriginal)"

  func retryAfter(_ answer: AppStoreServerAPI.HTTPResponse) -> Int64? {
    answer[header: "Retry-After"].flatMap { Int64($0) }
  }

  @Test("Apple's documented limits are the defaults, with the sandbox at 10 %")
  func defaults() {
    let limits = SimulatorRateLimits.appleDefaults
    #expect(limits.isEnabled && limits.mode == .perSecond)
    #expect(limits.requestsPerSecond(for: .transactionHistory, in: .production) == 50)
    #expect(limits.requestsPerSecond(for: .subscriptionStatuses, in: .sandbox) == 5)
    #expect(limits.requestsPerSecond(for: .setAppAccountToken, in: .production) == 20)
    #expect(limits.requestsPerSecond(for: .orderLookup, in: .production) == 10)
    #expect(limits.requestsPerSecond(for: .refundHistory, in: .sandbox) == 1)
  }

  @Test("per second: a burst over the rate is refused until a token is back")
  func perSecond() async throws {
    let harness = try SimulatorHarness.start(world: World.world) {
      $0.rateLimits = SimulatorRateLimits(production: [.transactionHistory: 2])
      $0.behaviour.additionalRateLimitHeaders = ["X-Rate-Limit-Hint": "simulated"]
    }
    defer { harness.stop() }
    let start = harness.clock.now.millisecondsSince1970
    #expect(try await harness.raw("GET", Self.historyPath).status == 200)
    #expect(try await harness.raw("GET", Self.historyPath).status == 200)
    let refused = try await harness.raw("GET", Self.historyPath)
    #expect(refused.status == 429)
    #expect(SimulatorHarness.errorCode(of: refused) == 4_290_000)
    #expect(retryAfter(refused) == start + 500)
    #expect(refused[header: "X-Rate-Limit-Hint"] == "simulated")
    // Other endpoints and the other environment count separately.
    #expect(
      try await harness.raw("GET", "/inApps/v1/subscriptions/\(World.subscriptionOriginal)").status
        == 200)
    harness.clock.advance(by: 499)
    #expect(try await harness.raw("GET", Self.historyPath).status == 429)
    harness.clock.advance(by: 1)
    #expect(try await harness.raw("GET", Self.historyPath).status == 200)
    #expect(
      harness.server.statistics().counters(for: .transactionHistory).statuses == [200: 3, 429: 2])
  }

  @Test("the sandbox gets its share of the production rate")
  func sandboxShare() async throws {
    let harness = try SimulatorHarness.start(world: World.world) {
      $0.rateLimits = SimulatorRateLimits(production: [.transactionHistory: 2])
    }
    defer { harness.stop() }
    let path = "/inApps/v2/history/\(World.testerTransaction)"
    let start = harness.clock.now.millisecondsSince1970
    #expect(try await harness.raw("GET", path, environment: .sandbox).status == 200)
    let refused = try await harness.raw("GET", path, environment: .sandbox)
    #expect(refused.status == 429)
    #expect(retryAfter(refused) == start + 5_000, "0.2 requests per second")
  }

  @Test("hourly, by the clock's hours: the budget resets at the next hour")
  func hourlyClockHours() async throws {
    let harness = try SimulatorHarness.start(world: World.world) {
      $0.rateLimits = SimulatorRateLimits(
        mode: .hourly(.clockHour), production: [.transactionHistory: 2.0 / 3600])
    }
    defer { harness.stop() }
    let hour = Timestamp.millisecondsPerHour
    let nextHour = (harness.clock.now.millisecondsSince1970 / hour + 1) * hour
    #expect(try await harness.raw("GET", Self.historyPath).status == 200)
    harness.clock.advance(by: 60_000)
    #expect(try await harness.raw("GET", Self.historyPath).status == 200)
    let refused = try await harness.raw("GET", Self.historyPath)
    #expect(refused.status == 429)
    #expect(retryAfter(refused) == nextHour)
    harness.clock.advance(by: nextHour - harness.clock.now.millisecondsSince1970)
    #expect(try await harness.raw("GET", Self.historyPath).status == 200)
  }

  @Test("hourly, rolling: the window starts with its first request")
  func hourlyRolling() async throws {
    let harness = try SimulatorHarness.start(world: World.world) {
      $0.rateLimits = SimulatorRateLimits(
        mode: .hourly(.rolling), production: [.transactionHistory: 2.0 / 3600])
    }
    defer { harness.stop() }
    harness.clock.advance(by: 600_000)
    let first = harness.clock.now.millisecondsSince1970
    #expect(try await harness.raw("GET", Self.historyPath).status == 200)
    #expect(try await harness.raw("GET", Self.historyPath).status == 200)
    let refused = try await harness.raw("GET", Self.historyPath)
    #expect(retryAfter(refused) == first + Timestamp.millisecondsPerHour)
    harness.clock.advance(by: Timestamp.millisecondsPerHour)
    #expect(try await harness.raw("GET", Self.historyPath).status == 200)
  }

  @Test("the real client waits until Retry-After and then succeeds")
  func clientHonoursRetryAfter() async throws {
    let harness = try SimulatorHarness.start(world: World.world) {
      $0.rateLimits = SimulatorRateLimits(production: [.subscriptionStatuses: 1])
    }
    defer { harness.stop() }
    let start = harness.clock.now.millisecondsSince1970
    for _ in 0..<3 {
      _ = try await harness.client.allSubscriptionStatuses(
        World.subscriptionOriginal, environment: .production)
    }
    let counters = harness.client.counters.snapshot()[.subscriptionStatuses]
    #expect(counters.rateLimited == 2)
    #expect(counters.successes == 3)
    #expect(
      harness.clock.now.millisecondsSince1970 == start + 2_000, "slept exactly to each Retry-After")
  }

  @Test("limits can be turned off")
  func off() async throws {
    let harness = try SimulatorHarness.start(world: World.world) { $0.rateLimits = .off }
    defer { harness.stop() }
    for _ in 0..<30 {
      #expect(try await harness.raw("GET", "/inApps/v1/lookup/MXXXXXXXXXXXXX").status == 200)
    }
  }
}
