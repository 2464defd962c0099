import AppStoreSimulator
import Foundation
import MigrationPipeline
import MigrationStore
import TestDirectories
import Testing

/// A recorded run is recomputed from the store without the network, and says which accounts
/// classify differently now than when it was made.
@Suite("End to end: recorded runs")
struct StoredRunTests {
  @Test("a run recomputes to its own classifications, and a later backfill shows as changes")
  func recompute() async throws {
    let world = try EndToEnd.world(seed: 25, accounts: 60)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let storePath = scratch.appendingPathComponent("store.sqlite").path
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    let first = try await EndToEnd.runWithBadStatusSignatures(
      world: world, scratch: scratch, options: options)
    #expect(first.backfill.failedIds > 0, "ids of customers whose statuses failed are failed")
    let unresolved = try first.run.comparisons().filter { $0.category == .unresolved }.map(
      \.accountId)
    try #require(!unresolved.isEmpty, "bad status signatures must leave accounts unresolved")

    let store = try MigrationStore(path: storePath, readOnly: true, now: { 0 })
    let recorded = try StoredRun.load(from: store, id: first.run.summary.runId)
    #expect(recorded.summary == first.run.summary)
    let again = try recorded.comparisons(store: store)
    let firstComparisons = try first.run.comparisons()
    #expect(again.map(\.explanation) == firstComparisons.map(\.explanation))
    #expect(try recorded.recount(store: store).changed.isEmpty)
    let one = try #require(firstComparisons.first)
    #expect(try recorded.comparison(of: one.accountId, store: store)?.category == one.category)
    #expect(try recorded.comparison(of: "no-such-account", store: store) == nil)
    #expect(throws: RunRecipe.Failure.self) { try StoredRun.load(from: store, id: "no-such-run") }
    try store.close()

    // A healthy backfill later: the same run, recomputed, now differs exactly where it failed.
    try await EndToEnd.heal(world: world, scratch: scratch, options: options)
    let later = try MigrationStore(path: storePath, readOnly: true, now: { 0 })
    defer { try? later.close() }
    let reloaded = try StoredRun.load(from: later, id: nil)
    #expect(reloaded.row.id == first.run.summary.runId, "the latest run is the default")
    let changed = try reloaded.recount(store: later).changed
    #expect(changed == unresolved.sorted())
  }
}
