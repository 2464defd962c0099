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
}
