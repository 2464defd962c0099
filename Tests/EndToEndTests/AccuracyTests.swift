import Foundation
import MigrationPipeline
import Testing

/// The comparison must put every account of a generated world exactly where the world's
/// oracle (`expected.csv`) says, on the App Store side and on the team table side: a mismatch
/// is a bug in one of the two, never a tolerance.
@Suite("End to end: every account in its expected category")
struct AccuracyTests {
  @Test("Legacy/sample, the embedded default's world")
  func sample() async throws {
    try await expectExactCategories(world: EndToEnd.sampleWorld)
  }

  @Test("generated worlds", arguments: [UInt64(11), 12, 13])
  func generated(seed: UInt64) async throws {
    try await expectExactCategories(world: try EndToEnd.world(seed: seed, accounts: 150))
  }

  private func expectExactCategories(world: String) async throws {
    let scratch = try EndToEnd.scratch()
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    let outcome = try await EndToEnd.runner(
      scratch: scratch, appStore: appStore,
      options: try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    ).run()
    let mismatches = try EndToEnd.mismatches(outcome.run.comparisons, world: world)
    #expect(
      mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
    #expect(outcome.run.comparisons.count == (try EndToEnd.expected(world: world)).count)
    #expect(outcome.backfill.failedIds == 0)
    #expect(outcome.run.summary.appStore.isSimulated)
  }
}
