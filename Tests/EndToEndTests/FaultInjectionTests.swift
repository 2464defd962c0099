import AppStoreServerAPI
import AppStoreSimulator
import Entitlements
import Foundation
import MigrationPipeline
import TestDirectories
import Testing

/// Faults end in success or in a precise per-account failure — never in a silent "match" or
/// any other category the data does not support — and a rerun without faults heals exactly the
/// failed accounts.
@Suite("End to end: faults")
struct FaultInjectionTests {
  /// Faults that test how a run ends rather than how one account does (a wait longer than the
  /// run, a walk that can never finish): each has its own test.
  static let runBoundaryFaults: Set<FaultKind> = [.distantRetryAfter, .refusedRevision]

  @Test("5xx, 5000001, retryable 404s, dropped and truncated answers, bad signatures")
  func faults() async throws {
    let world = try EndToEnd.world(seed: 23, accounts: 150)
    let expected = try EndToEnd.expected(world: world)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    let plan = try FaultPlan.parse(
      faults:
        "5000000=0.05,5000001=0.05,4040002=0.02,drop=0.03,truncate=0.02,malformed=0.02,"
        + "bad-signature=0.04",
      latency: nil)
    let faulty = try EndToEnd.AppStore(world: world) {
      $0.faults = plan
      $0.seed = 7
    } client: {
      $0.retryPolicy = EndToEnd.quickRetries
    }
    let first = try await EndToEnd.runner(scratch: scratch, appStore: faulty, options: options)
      .run()
    let injected = faulty.embedded.server.statistics().endpoints.values.reduce(0) {
      $0 + $1.faults.values.reduce(0, +)
    }
    // Retries the faults caused and nothing else: no clean answer was ever asked for twice.
    let customers = try EndToEnd.storedCustomers(
      scratch.appendingPathComponent("store.sqlite").path)
    let clean = EndToEnd.cleanAnswers(faulty.embedded.server.requestLog(), byId: customers.byId)
    #expect(clean.history == customers.pages)
    #expect(clean.statuses == customers.pages.mapValues { _ in 1 })
    faulty.stop()
    #expect(injected > 20, "the plan must really inject faults (\(injected) injected)")

    // Every account: exactly its expected category, or unresolved with the reason.
    var unresolved = 0
    for comparison in try first.run.comparisons() {
      let want = try #require(expected[comparison.accountId])
      if comparison.category == .unresolved {
        unresolved += 1
        let failed = comparison.evidence.seedIds.filter { $0.outcome == .failed }
        #expect(!failed.isEmpty && failed.allSatisfy { !($0.lastError ?? "").isEmpty })
        #expect(comparison.explanation.contains("could not be resolved"))
        continue
      }
      #expect(
        comparison.category.rawValue == want.category,
        "\(comparison.accountId): \(comparison.category.rawValue), expected \(want.category)")
    }
    #expect(unresolved > 0, "bad signatures and exhausted retries must leave some accounts")
    #expect(first.exitStatus == 4)
    #expect(first.run.summary.requests.contains { $0.retries > 0 })

    // Without faults, a rerun finishes the job and asks only for what failed.
    let healthy = try EndToEnd.AppStore(world: world)
    defer { healthy.stop() }
    let second = try await EndToEnd.runner(scratch: scratch, appStore: healthy, options: options)
      .run()
    let mismatches = try EndToEnd.mismatches(second.run.comparisons(), world: world)
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    #expect(second.exitStatus == 0)
    let rerunRequests = healthy.embedded.server.statistics().totalRequests
    #expect(rerunRequests > 0 && rerunRequests < 4 * unresolved + 20)
  }

  /// The fault matrix: each fault kind alone, at a rate that hits many requests of a small
  /// world. Every account ends exactly as without faults, or unresolved naming its reason.
  /// (`refused-revision` acts only on requests carrying a stored revision, which a migration
  /// of small histories hardly sends: the nightly audit's tests cover it.)
  @Test(
    "each fault kind alone: every account exact or failed with its reason",
    arguments: FaultKind.allCases.filter { !runBoundaryFaults.contains($0) })
  func faultMatrix(kind: FaultKind) async throws {
    let world = try EndToEnd.world(seed: 41, accounts: 40)
    let expected = try EndToEnd.expected(world: world)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    let plan = try FaultPlan.parse(faults: "\(kind.rawValue)=0.2", latency: nil)
    let faulty = try EndToEnd.AppStore(world: world) {
      $0.faults = plan
      $0.seed = 3
    } client: {
      $0.retryPolicy = EndToEnd.quickRetries
    }
    defer { faulty.stop() }
    let outcome = try await EndToEnd.runner(scratch: scratch, appStore: faulty, options: options)
      .run()
    let injected = faulty.embedded.server.statistics().endpoints.values.reduce(0) {
      $0 + ($1.faults[kind] ?? 0)
    }
    #expect(injected > 0, "\(kind.rawValue) was never injected")
    for comparison in try outcome.run.comparisons() {
      let want = try #require(expected[comparison.accountId])
      if comparison.category == .unresolved {
        #expect(
          comparison.explanation.contains("could not be resolved"),
          "\(kind.rawValue) \(comparison.accountId): \(comparison.explanation)")
        continue
      }
      #expect(
        comparison.category.rawValue == want.category,
        "\(kind.rawValue) \(comparison.accountId): \(comparison.category.rawValue), expected \(want.category)"
      )
    }
  }

  @Test("after verification failures, every rerun names the check that failed, for which id")
  func reasonsSurviveReruns() async throws {
    let world = try EndToEnd.world(seed: 29, accounts: 80)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    let plan = try FaultPlan.parse(faults: "bad-signature=0.15,malformed=0.05", latency: nil)
    for night in 0..<3 {
      let faulty = try EndToEnd.AppStore(world: world) {
        $0.faults = plan
        $0.seed = UInt64(night + 1)
      } client: {
        $0.retryPolicy = EndToEnd.quickRetries
      }
      defer { faulty.stop() }
      let outcome = try await EndToEnd.runner(scratch: scratch, appStore: faulty, options: options)
        .run()
      let unresolved = try outcome.run.comparisons().filter { $0.category == .unresolved }
      if night == 0 { #expect(!unresolved.isEmpty, "the plan must leave some accounts failed") }
      for comparison in unresolved {
        #expect(
          !comparison.explanation.contains("interrupted"),
          "run \(night), \(comparison.accountId): \(comparison.explanation)")
        #expect(
          comparison.explanation.contains("could not be resolved"),
          "run \(night), \(comparison.accountId): \(comparison.explanation)")
      }
    }
  }

  @Test("a 429 storm slows the client down, and the run still ends exactly right")
  func rateLimitStorm() async throws {
    let world = try EndToEnd.world(seed: 24, accounts: 40)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    // The simulator's wall clock moves with its requests: at most 50 ms per reading (two per
    // request), never past real time. Its buckets of 4 a second then refill by at most 0.4 of a
    // request per request, so 429s come however slowly a loaded machine sends: on the real
    // clock, a test process starved of CPU sent so slowly that the bucket never ran dry.
    let paced = RequestPacedClock(step: 50)
    let appStore = try EndToEnd.AppStore(world: world, wallClock: paced) {
      $0.rateLimits = SimulatorRateLimits(
        production: [.transactionHistory: 4, .subscriptionStatuses: 4], sandboxShare: 1)
      // The paced clock falls behind real time, in which the client signs its tokens.
      $0.tokenClockSkew = .seconds(3_600)
    } client: {
      // The client believes in 25 times the rate the server allows, and starts with a burst
      // of 16 requests in flight at once against a bucket of 4.
      $0.rateLimits = RateLimits(
        production: [.transactionHistory: 100, .subscriptionStatuses: 100], sandboxShare: 1,
        burst: 16)
    }
    defer { appStore.stop() }
    let outcome = try await EndToEnd.runner(
      scratch: scratch, appStore: appStore,
      options: try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    ).run()
    let rateLimited = outcome.run.summary.requests.reduce(0) { $0 + $1.rateLimited }
    #expect(rateLimited > 0, "the client's burst must meet the simulator's 10/s")
    #expect(outcome.backfill.failedIds == 0)
    let mismatches = try EndToEnd.mismatches(try outcome.run.comparisons(), world: world)
    #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
  }
}
