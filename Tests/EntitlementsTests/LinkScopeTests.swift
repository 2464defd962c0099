import AppStoreServerAPI
import Chronology
import Entitlements
import Testing

/// Which purchases `link` writes by default, and what each flag widens: the rules of
/// `LinkScope`, on purchases built by hand. Our own code only: the rules are the project's
/// decision (documented in Linking.md), not a fact another program could judge.
@Suite("link scope")
struct LinkScopeTests {
  static let day = Timestamp.millisecondsPerDay
  static let now = Timestamp(millisecondsSince1970: 20_000 * day)

  static func purchase(
    _ type: TransactionType, ownership: InAppOwnershipType = .purchased, boughtDaysAgo: Int64 = 10,
    expiresInDays: Int64? = nil, revokedDaysAgo: Int64? = nil
  ) -> PurchaseToken {
    var latest = JWSTransaction()
    latest.transactionId = "2"
    latest.originalTransactionId = "1"
    latest.type = type
    latest.inAppOwnershipType = ownership
    latest.purchaseDate = now.adding(milliseconds: -boughtDaysAgo * day)
    latest.expiresDate = expiresInDays.map { now.adding(milliseconds: $0 * day) }
    latest.revocationDate = revokedDaysAgo.map { now.adding(milliseconds: -$0 * day) }
    return PurchaseToken(
      customerKey: "c", environment: "Production", originalTransactionId: "1", productId: "p",
      isSubscription: type == .autoRenewableSubscription, isOriginalKnown: true,
      currentToken: nil, expectedToken: "t", tokenOwner: nil, finding: .missing, latest: latest)
  }

  @Test(
    "by default: owned non-consumables, subscriptions entitled or lapsed within a year, non-renewing ones bought within it"
  )
  func defaults() {
    let scope = LinkScope()
    let cases: [(PurchaseToken, LinkSkipReason?)] = [
      (Self.purchase(.nonConsumable, boughtDaysAgo: 3000), nil),
      (Self.purchase(.autoRenewableSubscription, expiresInDays: 20), nil),
      // Billing retry or grace: the period ended days ago; the customer may still renew.
      (Self.purchase(.autoRenewableSubscription, expiresInDays: -10), nil),
      (Self.purchase(.autoRenewableSubscription, expiresInDays: -364), nil),
      (Self.purchase(.autoRenewableSubscription, expiresInDays: -366), .lapsed),
      (Self.purchase(.nonRenewingSubscription, boughtDaysAgo: 300), nil),
      (Self.purchase(.nonRenewingSubscription, boughtDaysAgo: 400), .lapsed),
      (Self.purchase(.consumable), .consumable),
      (Self.purchase(.nonConsumable, revokedDaysAgo: 2), .revoked),
      (Self.purchase(.autoRenewableSubscription, expiresInDays: 20, revokedDaysAgo: 1), .revoked),
      // A revocation dated after the instant judged has not happened yet.
      (Self.purchase(.nonConsumable, revokedDaysAgo: -1), nil),
      (
        Self.purchase(.autoRenewableSubscription, ownership: .familyShared, expiresInDays: 5),
        .familyShared
      ),
      (Self.purchase(.nonConsumable, ownership: .assigned), .assigned),
    ]
    for (purchase, expected) in cases {
      #expect(
        scope.exclusion(of: purchase, at: Self.now) == expected,
        "\(purchase.productType?.rawValue ?? "?") \(purchase.ownership?.rawValue ?? "?")")
    }
  }

  @Test("the flags widen the scope; family-shared and assigned purchases stay out")
  func widened() {
    let scope = LinkScope(
      includesConsumables: true, includesRevoked: true, lapsedWithinMilliseconds: nil)
    #expect(scope.exclusion(of: Self.purchase(.consumable), at: Self.now) == nil)
    #expect(
      scope.exclusion(of: Self.purchase(.nonConsumable, revokedDaysAgo: 2), at: Self.now) == nil)
    #expect(
      scope.exclusion(
        of: Self.purchase(.autoRenewableSubscription, expiresInDays: -3000), at: Self.now) == nil)
    #expect(
      scope.exclusion(of: Self.purchase(.nonConsumable, ownership: .familyShared), at: Self.now)
        == .familyShared)
    #expect(
      scope.exclusion(of: Self.purchase(.nonConsumable, ownership: .assigned), at: Self.now)
        == .assigned)
    let month = LinkScope(lapsedWithinMilliseconds: 30 * Self.day)
    #expect(
      month.exclusion(
        of: Self.purchase(.autoRenewableSubscription, expiresInDays: -31), at: Self.now)
        == .lapsed)
  }

  @Test("the audit takes a purchase's facts from its latest transaction")
  func latestFacts() {
    var first = JWSTransaction()
    first.transactionId = "1"
    first.originalTransactionId = "1"
    first.type = .autoRenewableSubscription
    first.purchaseDate = Self.now.adding(milliseconds: -60 * Self.day)
    first.expiresDate = Self.now.adding(milliseconds: -30 * Self.day)
    first.revocationDate = Self.now.adding(milliseconds: -40 * Self.day)
    var renewal = first
    renewal.transactionId = "2"
    renewal.purchaseDate = Self.now.adding(milliseconds: -30 * Self.day)
    renewal.expiresDate = Self.now
    renewal.revocationDate = nil
    var mapping = AccountTokenMapping()
    mapping.add(token: "11111111-1111-4111-8111-111111111111", forAccount: "a")
    let audit = TokenAuditor(mapping: mapping).audit(
      accountId: "a",
      customers: [.init(key: "c", environment: "Production", transactions: [first, renewal])])
    let purchase = audit.purchases[0]
    #expect(purchase.latestTransactionId == "2")
    #expect(purchase.revocationDate == nil, "a refunded earlier period does not revoke it")
    #expect(LinkScope().exclusion(of: purchase, at: Self.now) == nil)
  }
}
