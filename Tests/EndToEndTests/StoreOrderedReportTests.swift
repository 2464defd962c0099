import Entitlements
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore
import TestDirectories
import Testing

/// A report of stored accounts is ordered inside the store (TEMP tables, SQLite's sort) and
/// compared a chunk at a time; the expectation is the same comparisons sorted in memory by the
/// report's own order (own-code evidence on both sides, but two independent orderings: SQLite's
/// `BINARY` collation and Swift's byte comparison).
@Suite("End to end: reports ordered inside the store")
struct StoreOrderedReportTests {
  @Test(
    "the store streams every account once, in the order memory sorts them, from the run's classifications and from a recount",
    arguments: [false, true])
  func sameOrderAsMemory(redacted: Bool) async throws {
    let (writable, result, scratch) = try await CompareReadAheadTests.migratedStore()
    defer { TemporaryDirectory.remove(scratch) }
    try writable.close()
    // Read-only, as `report` opens it.
    let store = try MigrationStore(
      path: scratch.appendingPathComponent("store.sqlite").path, readOnly: true, now: { 0 })
    defer { try? store.close() }
    let pseudonymizer = redacted ? try Pseudonymizer(salt: Array(repeating: 7, count: 32)) : nil
    let stored = try StoredRun.load(from: store, id: result.run.summary.runId)
    let all = try stored.comparisons(store: store)
    #expect(all.count == 60)
    let chunkSize = 7
    func streamed(_ source: any ComparisonSource) throws -> [[AccountComparison]] {
      var chunks: [[AccountComparison]] = []
      try source.forEachInDisplayOrder(chunkSize: chunkSize, pseudonymizer: pseudonymizer) {
        chunks.append($0)
      }
      return chunks
    }
    let expected = try streamed(ComparisonArray(all)).flatMap { $0 }
    #expect(
      Set(expected.map(\.category)).count > 2, "the world spans several categories to order")

    let stage = CompareStage(
      store: store,
      options: try stored.recipe.compareOptions(store: store, runId: stored.row.id))
    // Pages of 5 accounts: the display order is written in many small transactions.
    let fromRun = try streamed(
      StoredComparisons(stage: stage, outline: .storedRun(stored.row.id), pageSize: 5))
    expectSame(fromRun, expected)
    #expect(fromRun.allSatisfy { $0.count <= chunkSize && !$0.isEmpty })

    let recount = try stored.recount(store: store)
    #expect(recount.changed.isEmpty)
    let fromRecount = try streamed(try stored.source(outline: recount.outline, store: store))
    expectSame(fromRecount, expected)
    // A second report through the same connection starts from an empty display order.
    expectSame(try streamed(try stored.source(outline: recount.outline, store: store)), expected)
  }

  /// The ids in order (a readable failure), then the whole comparisons.
  private func expectSame(
    _ chunks: [[AccountComparison]], _ expected: [AccountComparison],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let streamed = chunks.flatMap { $0 }
    #expect(
      streamed.map(\.accountId) == expected.map(\.accountId), sourceLocation: sourceLocation)
    let identical = streamed == expected
    #expect(identical, "the same comparisons", sourceLocation: sourceLocation)
  }
}
