import Foundation
import MigrationStore
import Testing

/// Schema version 10 keeps, per product, the greatest type and group any stored transaction
/// carried, so the catalogue's completion no longer reads every transaction. Checked against
/// the `GROUP BY` over `transactions` it replaces, run on the same file (own-code evidence:
/// both sides are this project's SQL).
@Suite("MigrationStore products seen")
struct ProductsSeenStorageTests {
  typealias Product = (productId: String, type: String?, group: String?)

  static func row(
    _ id: String, product: String?, type: String?, group: String?, signed: Int64 = 1
  ) -> TransactionRow {
    var row = TransactionRow(transactionId: id, jws: "h.payload-\(id)-\(signed).sig")
    row.productId = product
    row.type = type
    row.subscriptionGroup = group
    row.signedMilliseconds = signed
    return row
  }

  /// What `productsSeen()` answered before schema 10, asked of the file directly.
  static func groupedFromTransactions(_ path: String) throws -> [String] {
    let database = try SQLiteDatabase(location: .path(path), mode: .readOnly)
    defer { try? database.close() }
    var products: [String] = []
    try database.forEachRow(
      """
      SELECT product_id, MAX(type), MAX(subscription_group) FROM transactions
      WHERE product_id IS NOT NULL GROUP BY product_id ORDER BY product_id
      """
    ) {
      products.append(
        "\(try $0.string(at: 0))|\(try $0.optionalString(at: 1) ?? "-")|\(try $0.optionalString(at: 2) ?? "-")"
      )
    }
    return products
  }

  static func described(_ products: [Product]) -> [String] {
    products.map { "\($0.productId)|\($0.type ?? "-")|\($0.group ?? "-")" }
  }

  @Test("storing transactions keeps each product's greatest type and group, as the GROUP BY does")
  func keptAsStored() throws {
    try TemporaryDirectory.with { directory in
      let path = directory + "/state.sqlite"
      let store = try MigrationStore(path: path, now: { 0 })
      try CompactTransactionStorageTests.addAccounts(["acct-1", "acct-2"], to: store)
      var customers: [Int64] = []
      for (index, account) in ["acct-1", "acct-2"].enumerated() {
        let customer = try store.claimCustomer(
          key: "Production:\(index)", appTransactionId: nil, environment: "Production",
          walkTransactionId: "\(index)", now: 1, compactFormat: nil
        ).row
        try store.linkAccount(account, toCustomer: customer.id)
        customers.append(customer.id)
      }
      #expect(try store.productsSeen().isEmpty)
      try store.storeHistoryPage(
        [
          Self.row("1", product: "pro.monthly", type: "Auto-Renewable Subscription", group: "g1"),
          Self.row("2", product: "pro.monthly", type: nil, group: nil),
          Self.row("3", product: "lifetime", type: "Non-Consumable", group: nil),
          Self.row("4", product: nil, type: "Consumable", group: "g9"),
          Self.row("5", product: "coins", type: nil, group: nil),
        ], customerId: customers[0], revision: "r1", isLast: true, now: 2)
      try store.storeHistoryPage(
        [
          // A greater group for a product seen before, and a type for one seen without.
          Self.row("6", product: "pro.monthly", type: "Auto-Renewable Subscription", group: "g2"),
          Self.row("7", product: "coins", type: "Consumable", group: nil),
          Self.row("8", product: "pro.monthly", type: "Auto-Renewable Subscription", group: "g0"),
        ], customerId: customers[1], revision: "r1", isLast: true, now: 2)
      // An older signed copy changes nothing; a newer one of the same transaction is stored.
      try store.storeRefreshPage(
        [Self.row("3", product: "lifetime", type: "Z-older", group: nil, signed: 0)],
        customerId: customers[0], revision: "r2", isLast: true, now: 3)
      try store.storeRefreshPage(
        [Self.row("5", product: "coins", type: "Consumable", group: nil, signed: 2)],
        customerId: customers[0], revision: "r3", isLast: true, now: 3)
      let seen = Self.described(try store.productsSeen())
      try store.close()
      #expect(
        seen == [
          "coins|Consumable|-", "lifetime|Non-Consumable|-",
          "pro.monthly|Auto-Renewable Subscription|g2",
        ])
      #expect(seen == (try Self.groupedFromTransactions(path)))
    }
  }

  @Test("a store of version 9 is upgraded with the products its transactions describe")
  func upgradeFills() throws {
    try TemporaryDirectory.with { directory in
      let path = directory + "/state.sqlite"
      let store = try MigrationStore(path: path, now: { 0 })
      try CompactTransactionStorageTests.addAccounts(["acct-1"], to: store)
      let customer = try store.claimCustomer(
        key: "Production:1", appTransactionId: nil, environment: "Production",
        walkTransactionId: "1", now: 1, compactFormat: nil
      ).row
      try store.storeHistoryPage(
        [
          Self.row("1", product: "pro.yearly", type: "Auto-Renewable Subscription", group: "g1"),
          Self.row("2", product: "lifetime", type: "Non-Consumable", group: nil),
        ], customerId: customer.id, revision: "r1", isLast: true, now: 2)
      try store.close()
      // Back to version 9: the table and its version row gone, the transactions kept; and what
      // version 11 added, so that its migration can run again.
      let database = try SQLiteDatabase(location: .path(path))
      try database.execute(
        """
        DROP TABLE products_seen; DELETE FROM schema_version WHERE version >= 10;
        DROP TABLE feed_health; DROP TABLE invalid_notifications; DROP TABLE unclaimed_customers;
        ALTER TABLE customers DROP COLUMN notified_ms;
        DROP INDEX lost_notifications_by_delivery;
        ALTER TABLE lost_notifications DROP COLUMN delivery;
        ALTER TABLE lost_notifications DROP COLUMN attempts;
        ALTER TABLE lost_notifications DROP COLUMN final_ms;
        """)
      try database.close()

      let upgraded = try MigrationStore(path: path, now: { 0 })
      let seen = Self.described(try upgraded.productsSeen())
      try upgraded.close()
      #expect(seen == ["lifetime|Non-Consumable|-", "pro.yearly|Auto-Renewable Subscription|g1"])
      #expect(seen == (try Self.groupedFromTransactions(path)))
    }
  }
}
