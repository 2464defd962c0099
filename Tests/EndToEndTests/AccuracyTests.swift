import Foundation
import MigrationPipeline
import TestDirectories
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

  @Test(
    "generated worlds without a catalogue: products learnt from the App Store, tables exact",
    arguments: [UInt64(11), 14])
  func withoutCatalogue(seed: UInt64) async throws {
    // Non-renewing subscriptions last what only the catalogue says; the App Store does not
    // carry it, so those accounts are the one allowed difference (as duration_unknown).
    try await expectExactCategories(
      world: try EndToEnd.world(seed: seed, accounts: 150), catalogue: false)
  }

  private func expectExactCategories(world: String, catalogue: Bool = true) async throws {
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    var options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    if !catalogue { options.catalogPath = nil }
    let outcome = try await EndToEnd.runner(
      scratch: scratch, appStore: appStore, options: options
    ).run()
    let mismatches = try EndToEnd.mismatches(outcome.run.comparisons(), world: world).filter {
      catalogue || !$0.contains("duration_unknown")
    }
    #expect(
      mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
    let compared = try outcome.run.comparisons().count
    #expect(compared == (try EndToEnd.expected(world: world)).count)
    #expect(outcome.backfill.failedIds == 0)
    #expect(outcome.run.summary.appStore.isSimulated)
  }
}
