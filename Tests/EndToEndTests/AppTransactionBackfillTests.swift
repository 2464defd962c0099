import AppStoreServerAPI
import AppStoreSimulator
import Foundation
import MigrationPipeline
import MigrationStore
import TestDirectories
import Testing

/// `--app-transactions` against app transactions shaped as Apple's are: no `signedDate`, a
/// `receiptCreationDate`. Before the verifier validated at `receiptCreationDate`, every one was
/// rejected and every customer stayed unresolved. Checks this project's pipeline against its own
/// simulator; the simulator's shape is checked against Apple's library by the conformance test.
@Suite("End to end: app transactions without signedDate are fetched and stored")
struct AppTransactionBackfillTests {
  @Test("a backfill with app transactions resolves every customer and stores each app transaction")
  func appTransactions() async throws {
    let world = try EndToEnd.world(seed: 23, accounts: 40)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    var options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    options.backfill.fetchAppTransactions = true
    let outcome = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    #expect(outcome.backfill.failedIds == 0)
    #expect(outcome.backfill.customers > 0)
    let database = try SQLiteDatabase(
      location: .path(scratch.appendingPathComponent("store.sqlite").path), mode: .readOnly)
    defer { try? database.close() }
    var incomplete = -1
    try database.forEachRow("SELECT count(*) FROM customers WHERE NOT app_transaction_complete") {
      incomplete = try $0.int(at: 0)
    }
    #expect(incomplete == 0)
    var stored: [(String, String)] = []
    try database.forEachRow(
      "SELECT c.customer_key, coalesce(a.app_transaction_id, '') FROM app_transactions a JOIN customers c ON c.id = a.customer_id"
    ) { stored.append((try $0.string(at: 0), try $0.string(at: 1))) }
    #expect(stored.count == outcome.backfill.customers)
    #expect(stored.allSatisfy { !$0.1.isEmpty })
  }
}
