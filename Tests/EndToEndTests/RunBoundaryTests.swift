import AppStoreServerAPI
import AppStoreSimulator
import Entitlements
import Foundation
import MigrationPipeline
import TestDirectories
import Testing

/// The nights the reliability campaign found ending badly — a crash from one answer, a wait
/// longer than the run, a walk that never ends — replayed through the loopback simulator's fault
/// plan. Each run must end, in a bounded time, with the documented exit status and every
/// account it could not see unresolved with the reason. Evidence: our own code only (the
/// simulator acts the faults out; the pipeline is judged against the world's expected.csv).
@Suite("End to end: the boundaries of a run")
struct RunBoundaryTests {
  /// One status answer in twenty carries a value signed, validly, at `signedDate` Int64.min:
  /// once a trap in the chain check (SIGILL, exit 132, no report), now a refusal of that value.
  @Test("a value signed at the earliest 64-bit instant fails its account with the reason")
  func extremeSignedDate() async throws {
    let world = try EndToEnd.world(seed: 31, accounts: 60)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    let plan = try FaultPlan.parse(faults: "status:extreme-signed-date=0.05", latency: nil)
    let faulty = try EndToEnd.AppStore(world: world) {
      $0.faults = plan
      $0.seed = 5
    } client: {
      $0.retryPolicy = EndToEnd.quickRetries
    }
    defer { faulty.stop() }
    let outcome = try await EndToEnd.runner(scratch: scratch, appStore: faulty, options: options)
      .run()
    let injected =
      faulty.embedded.server.statistics().counters(for: .subscriptionStatuses)
      .faults[.extremeSignedDate] ?? 0
    #expect(injected > 0, "the plan must sign some status answer at the extreme")
    #expect(outcome.exitStatus == 4)
    let expected = try EndToEnd.expected(world: world)
    var unresolved = 0
    for comparison in try outcome.run.comparisons() {
      guard comparison.category == .unresolved else {
        let want = try #require(expected[comparison.accountId])
        #expect(comparison.category.rawValue == want.category, "\(comparison.accountId)")
        continue
      }
      unresolved += 1
      let errors = comparison.evidence.seedIds.compactMap(\.lastError).joined(separator: " ")
      #expect(
        errors.contains("not valid at"), "\(comparison.accountId): \(comparison.explanation)")
    }
    #expect(unresolved > 0)
  }

  /// The night one 429 froze: `Retry-After` a day ahead, neither budget ending it. Every status
  /// answer now says so; each customer is given up at once with the reason (the limiter holds
  /// the endpoint, so most are refused without a request) and the run ends.
  @Test(
    "a Retry-After a day ahead fails each customer with the reason, and the run ends",
    .timeLimit(.minutes(10)))
  func farRetryAfter() async throws {
    let world = try EndToEnd.world(seed: 31, accounts: 60)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    let plan = try FaultPlan.parse(faults: "status:retry-after=1", latency: nil)
    let faulty = try EndToEnd.AppStore(world: world) { $0.faults = plan }
    defer { faulty.stop() }
    let outcome = try await EndToEnd.runner(scratch: scratch, appStore: faulty, options: options)
      .run()
    #expect(outcome.exitStatus == 4)
    let statuses = faulty.embedded.server.statistics().counters(for: .subscriptionStatuses)
    #expect(statuses.requests > 0)
    // The first 429 holds the endpoint: only the calls already past the limiter were sent.
    #expect(statuses.requests <= 16, "\(statuses.requests) status requests after the hold")
    let unresolved = try outcome.run.comparisons().filter { $0.category == .unresolved }
    #expect(!unresolved.isEmpty)
    for comparison in unresolved {
      let errors = comparison.evidence.seedIds.compactMap(\.lastError).joined(separator: " ")
      #expect(
        errors.contains("given up for this run") && errors.contains("longest wait"),
        "\(comparison.accountId): \(errors)")
    }
  }

  /// The same 429 during a nightly audit with a time budget: a wait of ten minutes is within
  /// what the client accepts, but past the budget's end, so it is not begun.
  @Test(
    "a Retry-After past the end of --max-duration is not waited for; the night ends stale",
    .timeLimit(.minutes(10)))
  func retryAfterPastTheBudget() async throws {
    let world = try EndToEnd.timelineWorld(seed: 61, accounts: 40, days: 3, rateScale: 4)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let first = try EndToEnd.night(0, of: world)
    let healthy = try EndToEnd.AppStore(world: world, clock: first)
    var options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    options.asOf = nil
    _ = try await EndToEnd.runner(scratch: scratch, appStore: healthy, options: options).run()
    healthy.stop()

    let second = try EndToEnd.night(1, of: world)
    let plan = try FaultPlan.parse(faults: "retry-after=1", latency: nil)
    let faulty = try EndToEnd.AppStore(world: world, clock: second) {
      $0.faults = plan
      $0.faults.retryAfterDelay = 600_000
    }
    defer { faulty.stop() }
    options.refresh.maxDurationMilliseconds = 120_000
    let outcome = try await EndToEnd.runner(scratch: scratch, appStore: faulty, options: options)
      .run()
    #expect(outcome.exitStatus == 4)
    #expect(
      outcome.refresh.warnings.contains { $0.contains("--max-duration") },
      "\(outcome.refresh.warnings)")
    #expect(outcome.refresh.failed > 0)
    #expect(try outcome.run.comparisons().contains { $0.category == .staleAppStoreData })
  }

  /// A revision Apple refuses restarts the walk once; refused again, the customer fails with
  /// the reason instead of walking for ever (10,495 refused requests in 420 s, in the refresh).
  @Test(
    "a history revision refused every time: one restart per customer, then the reason",
    .timeLimit(.minutes(10)))
  func refusedRevision() async throws {
    let world = try EndToEnd.world(seed: 31, accounts: 60)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    let plan = try FaultPlan.parse(faults: "history:refused-revision=1", latency: nil)
    let faulty = try EndToEnd.AppStore(world: world) { $0.faults = plan }
    defer { faulty.stop() }
    let outcome = try await EndToEnd.runner(scratch: scratch, appStore: faulty, options: options)
      .run()
    let history = faulty.embedded.server.statistics().counters(for: .transactionHistory)
    let refused = history.faults[.refusedRevision] ?? 0
    #expect(refused > 0, "no customer of the world has a second page")
    #expect(outcome.exitStatus == 4)
    var failed = 0
    for comparison in try outcome.run.comparisons() where comparison.category == .unresolved {
      let errors = comparison.evidence.seedIds.compactMap(\.lastError).joined(separator: " ")
      if errors.contains("refused again after the walk started over") { failed += 1 }
    }
    #expect(failed > 0)
    // Each refused customer: one first page, one refusal, the first page again, one refusal.
    #expect(refused <= 2 * failed + 16, "\(refused) refusals for \(failed) failed accounts")
  }
}
