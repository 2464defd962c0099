import AppStoreServerAPI
import AppStoreSimulator
import Entitlements
import Foundation
import MigrationPipeline
import MigrationStore
import TestDirectories
import Testing

/// Customers without a transaction id, end to end: a generated world where many accounts hold
/// only the customer's app transaction id or only an order id, and many records carry the app
/// transaction id beside a receipt without any transaction, runs through ingest, backfill (Look
/// Up Order ID against the simulator, history and statuses by app transaction id) and compare;
/// every account must land where the world's oracle says. Extra records name an order id and an
/// app transaction id the App Store does not know. The oracle and the pipeline are both this
/// project's code; the simulator answers Look Up Order ID as Apple documents it.
@Suite("End to end: customers reached by app transaction id and order id")
struct CustomerIdEndToEndTests {
  @Test("app-transaction-id-only and order-id-only accounts reach their customers")
  func idsOnly() async throws {
    var configuration = GeneratorConfiguration()
    configuration.appTransactionIdOnlyRate = 0.15
    configuration.orderIdOnlyRate = 0.15
    configuration.appTransactionIdRate = 0.5
    // Customers whose receipts hold no transaction id: never purchased, consumables only.
    configuration.archetypeWeights = [
      (.neverPurchased, 3), (.consumablesOnly, 3), (.loyalSubscriber, 3), (.oneTimeBuyer, 2),
      (.churned, 2), (.refunded, 1),
    ]
    let world = try EndToEnd.world(
      seed: 41, accounts: 120, configuration: configuration, label: "customer-ids")
    let setup = try SimulatorSetup.prepare(worldDirectory: world)
    let styles = setup.world.accounts.flatMap(\.snapshots).map(\.style)
    try #require(styles.contains(.appTransactionIdOnly) && styles.contains(.orderIdOnly))

    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    // Two accounts of ids the App Store does not know: a made-up order and app transaction.
    let extra = scratch.appendingPathComponent("extra.ndjson")
    try Data(
      (#"{"account_id":"x-order","order_id":"MZZZZZZZZZZZZZ"}"# + "\n"
        + #"{"account_id":"x-app","app_transaction_id":"704999999999999007"}"# + "\n").utf8
    ).write(to: extra)
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    var options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    options.legacyPaths.append(extra.path)
    let outcome = try await EndToEnd.runner(
      scratch: scratch, appStore: appStore, options: options
    ).run()
    let comparisons = try outcome.run.comparisons()

    let ours = comparisons.filter { !$0.accountId.hasPrefix("x-") }
    let mismatches = try EndToEnd.mismatches(ours, world: world)
    #expect(
      mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.joined(separator: "\n"))")
    let byId = Dictionary(uniqueKeysWithValues: comparisons.map { ($0.accountId, $0) })
    #expect(byId["x-order"]?.category == .unknownToAppStore)
    #expect(byId["x-order"]?.evidence.orderIds.first?.outcome == .invalid)
    #expect(byId["x-app"]?.category == .unknownToAppStore)

    // Every order-id-only account was answered and reached its customer.
    for account in setup.world.accounts where account.snapshots.first?.style == .orderIdOnly {
      let comparison = try #require(byId[account.id])
      #expect(comparison.evidence.orderIds.map(\.outcome) == [.valid], "\(account.id)")
      #expect(!comparison.evidence.customers.isEmpty, "\(account.id)")
    }
    // Every app-transaction-id-only account reached its customer, bought something or not.
    for account in setup.world.accounts
    where account.snapshots.first?.style == .appTransactionIdOnly {
      let comparison = try #require(byId[account.id])
      let customer = setup.world.customers[account.customers[0]]
      #expect(
        comparison.evidence.customers.map(\.key) == [customer.appTransactionId], "\(account.id)")
    }
    // Receipts without a transaction id, beside the customer's app transaction id: reached.
    let reachedWithoutIds = setup.world.accounts.filter { account in
      account.snapshots.allSatisfy {
        $0.storesAppTransactionId && $0.style == .modern
          && LegacyResponseWriter(world: setup.world).visibleTransactions(of: $0).isEmpty
      }
    }
    try #require(!reachedWithoutIds.isEmpty, "the world holds no such account")
    for account in reachedWithoutIds {
      #expect(byId[account.id]?.category != .noTransactionId, "\(account.id)")
    }
    // One look-up per order id, in production; the sandbox was never asked.
    let statistics = appStore.embedded.server.statistics()
    let orders = statistics.counters(for: .orderLookup)
    #expect(orders.requests == outcome.backfill.orderOutcomes.values.reduce(0, +))
    #expect(statistics.counters(for: .orderLookup, in: [.sandbox]).requests == 0)

    // A second run asks nothing again.
    let before = appStore.embedded.server.statistics().totalRequests
    _ = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options).run()
    #expect(appStore.embedded.server.statistics().totalRequests == before)
  }
}
