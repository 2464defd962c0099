import Chronology
import Entitlements
import Foundation
import LegacyReceipts
import MigrationPipeline
import MigrationStore
import TestDirectories
import Testing

/// The compare stage reads the next chunk, a part on each of several connections, while it
/// compares and stores the current one (own-code evidence: both sides are this project's).
@Suite("End to end: compare reads ahead")
struct CompareReadAheadTests {
  /// A store file that a whole run over a 60-account world filled, the run, and the directory
  /// that holds them: the caller closes the store, then removes the directory.
  static func migratedStore() async throws -> (MigrationStore, MigrationOutcome, URL) {
    let world = try EndToEnd.world(seed: 25, accounts: 60)
    let scratch = try EndToEnd.scratch()
    do {
      let options = try EndToEnd.options(
        world: world, reports: scratch.appendingPathComponent("r"))
      let appStore = try EndToEnd.AppStore(world: world)
      defer { appStore.stop() }
      let result = try await EndToEnd.runner(
        scratch: scratch, appStore: appStore, options: options
      ).run()
      let store = try MigrationStore(
        path: scratch.appendingPathComponent("store.sqlite").path, now: { 0 })
      return (store, result, scratch)
    } catch {
      TemporaryDirectory.remove(scratch)
      throw error
    }
  }

  @Test(
    "many small chunks read ahead in parts classify every account as one serial read does, with the team table stored or in memory",
    arguments: [false, true])
  func sameAsSerial(tableInMemory: Bool) async throws {
    let (store, result, scratch) = try await Self.migratedStore()
    defer { TemporaryDirectory.remove(scratch) }
    defer { try? store.close() }
    let runId = result.run.summary.runId
    var compareOptions = CompareOptions(asOf: result.run.summary.asOf, storedTableRunId: runId)
    if tableInMemory {
      var table: [AccountKey: [TableRow]] = [:]
      for accountId in try store.accountIds() {
        table[AccountKey(accountId)] = try store.currentEntitlements(
          runId: runId, accountId: accountId
        )
        .compactMap { row in
          EntitlementStatus(rawValue: row.status).map {
            TableRow(
              productId: row.productId, status: $0,
              expiresAt: row.expiresMilliseconds.map(Timestamp.init(millisecondsSince1970:)))
          }
        }
      }
      #expect(table.values.contains { !$0.isEmpty })
      compareOptions = CompareOptions(asOf: result.run.summary.asOf, table: table)
    }
    let serial = try CompareStage(store: store, options: compareOptions)
      .compare(accountIds: try store.accountIds())
    var chunks = 0
    var ahead: [String] = []
    let count = try CompareStage(store: store, options: compareOptions, chunkSize: 7).run {
      chunks += 1
      ahead.append(contentsOf: $0.map(\.explanation))
    }
    #expect(count == serial.count)
    #expect(chunks == (serial.count + 6) / 7)
    #expect(ahead == serial.map(\.explanation))
    #expect(serial.contains { $0.tableCategory != nil }, "the team table must be compared")
    #expect(serial.contains { $0.category != .unresolved }, "the world must hold resolved accounts")
  }

  @Test("a chunk that fails stops the read-ahead, and the store is usable afterwards")
  func failureStops() async throws {
    struct Stop: Error {}
    let (store, result, scratch) = try await Self.migratedStore()
    defer { TemporaryDirectory.remove(scratch) }
    defer { try? store.close() }
    let stage = CompareStage(
      store: store, options: CompareOptions(asOf: result.run.summary.asOf),
      chunkSize: 5)
    var seen = 0
    #expect(throws: Stop.self) {
      try stage.run { _ in
        seen += 1
        if seen == 2 { throw Stop() }
      }
    }
    #expect(seen == 2)
    #expect(try stage.run { _ in } == (try store.accountIds()).count)
  }
}
