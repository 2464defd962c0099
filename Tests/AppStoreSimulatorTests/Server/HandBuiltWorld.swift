import AppStoreSimulator
import Chronology
import LegacyReceipts

/// A world of three customers built by hand, for tests that need exact histories.
///
/// - `subscriber` (production): a monthly subscription renewed 41 times (42 transactions), two
///   consumables (one refunded long after it was bought, so it sorts late by last-modified
///   date), a non-consumable, a storage subscription shared through Family Sharing, and a
///   prorated refund of one renewal: 46 transactions.
/// - `member` (production): only a family-shared purchase.
/// - `tester` (sandbox): one consumable.
enum HandBuiltWorld {
  static let now = Timestamp(millisecondsSince1970: 1_761_955_200_000)
  static let day = Timestamp.millisecondsPerDay

  static let subscriptionOriginal = "2000000000100001"
  static let nonConsumableId = "2000000000100101"
  static let refundedConsumableId = "2000000000100102"
  static let consumableId = "2000000000100103"
  static let sharedOriginal = "2000000000100201"
  static let memberOriginal = "2000000000200001"
  static let testerTransaction = "3000000001"

  static let world: World = {
    var subscriber = Customer(
      index: 0, appTransactionId: "704000000000000107", environment: .production,
      firstSeen: at(-1300))
    for period in Int64(0)..<42 {
      let start = at(-30 * (42 - period))
      var transaction = SimulatedTransaction(
        transactionId: period == 0 ? subscriptionOriginal : String(2_000_000_000_100_001 + period),
        originalTransactionId: subscriptionOriginal,
        webOrderLineItemId: String(600_000_000_100_001 + period),
        productId: "com.example.pro.monthly",
        kind: .autoRenewable, group: "21000001", purchaseDate: start,
        originalPurchaseDate: at(-30 * 42), expiresDate: start.adding(milliseconds: 30 * day),
        ownership: .purchased, reason: period == 0 ? "PURCHASE" : "RENEWAL", priceMilli: 9_990)
      if period == 20 {
        transaction.revocation = Revocation(
          date: start.adding(milliseconds: 3 * day), kind: .refundProrated, reason: 1,
          percentageMilli: 40_000)
      }
      subscriber.transactions.append(transaction)
    }
    subscriber.renewals = [
      RenewalTimeline(
        originalTransactionId: subscriptionOriginal, group: "21000001",
        events: [
          (
            at(-30 * 42),
            RenewalState(autoRenewStatus: true, autoRenewProductId: "com.example.pro.monthly")
          )
        ])
    ]
    subscriber.transactions += [
      oneTime(nonConsumableId, "com.example.filters.lifetime", .nonConsumable, at(-700), 19_990),
      oneTime(
        refundedConsumableId, "com.example.coins.100", .consumable, at(-900), 990,
        revoked: at(-2)),
      oneTime(consumableId, "com.example.coins.500", .consumable, at(-100), 3_990),
    ]
    var shared = SimulatedTransaction(
      transactionId: sharedOriginal, originalTransactionId: sharedOriginal,
      webOrderLineItemId: "600000000100201", productId: "com.example.storage.yearly",
      kind: .autoRenewable, group: "21000002", purchaseDate: at(-200),
      originalPurchaseDate: at(-200),
      expiresDate: at(165), ownership: .familyShared, reason: "PURCHASE", priceMilli: 0)
    shared.appAccountToken = nil
    subscriber.transactions.append(shared)
    subscriber.renewals.append(
      RenewalTimeline(
        originalTransactionId: sharedOriginal, group: "21000002",
        events: [
          (
            at(-200),
            RenewalState(autoRenewStatus: true, autoRenewProductId: "com.example.storage.yearly")
          )
        ]))
    subscriber.transactions.sort {
      ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId)
    }

    var member = Customer(
      index: 1, appTransactionId: "704000000000001007", environment: .production,
      firstSeen: at(-300))
    var memberPurchase = shared
    memberPurchase.transactionId = memberOriginal
    memberPurchase.originalTransactionId = memberOriginal
    member.transactions = [memberPurchase]

    var tester = Customer(
      index: 2, appTransactionId: "704000000000002007", environment: .sandbox, firstSeen: at(-20))
    tester.transactions = [
      oneTime(testerTransaction, "com.example.coins.100", .consumable, at(-10), 990)
    ]
    return World(seed: 7, now: now, customers: [subscriber, member, tester])
  }()

  static var subscriber: Customer { world.customers[0] }

  static func at(_ days: Int64) -> Timestamp {
    now.adding(milliseconds: days * day)
  }

  private static func oneTime(
    _ id: String, _ product: String, _ kind: ProductKind, _ date: Timestamp, _ price: Int64,
    revoked: Timestamp? = nil
  ) -> SimulatedTransaction {
    SimulatedTransaction(
      transactionId: id, originalTransactionId: id, webOrderLineItemId: nil, productId: product,
      kind: kind, group: nil, purchaseDate: date, originalPurchaseDate: date, expiresDate: nil,
      ownership: .purchased, reason: "PURCHASE", priceMilli: price,
      revocation: revoked.map { Revocation(date: $0, kind: .refundFull, reason: 0) })
  }
}
