import AppStoreServerAPI
import Chronology
import Entitlements
import Testing

@Suite("appAccountToken audit")
struct TokenAuditorTests {
  static let mine = "11111111-1111-4111-8111-111111111111"
  static let theirs = "22222222-2222-4222-8222-222222222222"
  static let stranger = "33333333-3333-4333-8333-333333333333"

  static var mapping: AccountTokenMapping {
    var mapping = AccountTokenMapping()
    mapping.add(token: mine.uppercased(), forAccount: "a1")
    mapping.add(token: theirs, forAccount: "a2")
    return mapping
  }

  static func transaction(
    _ id: String, original: String, at day: Int64, token: String? = nil,
    type: TransactionType = .nonConsumable, familyShared: Bool = false
  ) -> JWSTransaction {
    var transaction = JWSTransaction()
    transaction.transactionId = id
    transaction.originalTransactionId = original
    transaction.productId = "p"
    transaction.purchaseDate = Timestamp(millisecondsSince1970: day * Timestamp.millisecondsPerDay)
    transaction.type = type
    transaction.appAccountToken = token
    transaction.inAppOwnershipType = familyShared ? .familyShared : .purchased
    return transaction
  }

  func audit(
    _ transactions: [JWSTransaction], account: String = "a1", written: [String: String] = [:]
  )
    -> AccountTokenAudit
  {
    TokenAuditor(mapping: Self.mapping).audit(
      accountId: account,
      customers: [
        .init(
          key: "c1", environment: "Production", transactions: transactions, writtenTokens: written)
      ])
  }

  @Test(
    "one purchase per original id, judged by its latest transaction, tokens compared in any case")
  func latestTransaction() {
    let result = audit([
      Self.transaction(
        "10", original: "10", at: 1, token: Self.theirs, type: .autoRenewableSubscription),
      Self.transaction(
        "11", original: "10", at: 31, token: Self.mine, type: .autoRenewableSubscription),
      Self.transaction("20", original: "20", at: 5),
    ])
    #expect(result.purchases.map(\.originalTransactionId) == ["10", "20"])
    #expect(result.purchases[0].finding == .matches, "an earlier renewal's token does not count")
    #expect(result.purchases[0].isSubscription)
    #expect(result.purchases[1].finding == .missing)
    #expect(result.finding == .missing)
    #expect(result.writes.map(\.originalTransactionId) == ["20"])
  }

  @Test("another account's token is a leak and names that account; an unknown one does not")
  func leaks() {
    let result = audit([
      Self.transaction("10", original: "10", at: 1, token: Self.theirs),
      Self.transaction("20", original: "20", at: 1, token: Self.stranger),
    ])
    #expect(result.purchases.map(\.finding) == [.different, .different])
    #expect(result.purchases[0].tokenOwner == "a2")
    #expect(result.purchases[1].tokenOwner == nil)
    #expect(result.finding == .different)
    #expect(result.writes.count == 2)
  }

  @Test("family-shared is not applicable; an unmapped account cannot be judged; nothing is written")
  func notApplicableAndUnmapped() {
    let shared = audit([Self.transaction("10", original: "10", at: 1, familyShared: true)])
    #expect(shared.purchases.map(\.finding) == [.notApplicable])
    #expect(shared.writes.isEmpty)
    let unmapped = audit([Self.transaction("10", original: "10", at: 1)], account: "a9")
    #expect(unmapped.purchases.map(\.finding) == [.unmapped])
    #expect(unmapped.writes.isEmpty)
  }

  @Test(
    "a token link wrote counts until the customer is fetched again; a renewal-only id is not an original"
  )
  func writtenTokensAndOriginals() {
    let result = audit(
      [Self.transaction("11", original: "10", at: 31, type: .autoRenewableSubscription)],
      written: ["10": Self.mine])
    #expect(result.purchases[0].finding == .matches)
    #expect(result.purchases[0].isOriginalKnown == false)
  }

  @Test("a mapping refuses a token held by another account, and a second token for an account")
  func mappingConflicts() {
    var mapping = Self.mapping
    #expect(mapping.add(token: Self.mine, forAccount: "a3") == .tokenHeldBy("a1"))
    #expect(mapping.add(token: Self.stranger, forAccount: "a1") == .accountHasToken(Self.mine))
    #expect(mapping.add(token: Self.mine, forAccount: "a1") == nil, "the same pair twice is fine")
    #expect(mapping.account(owning: Self.theirs.uppercased()) == "a2")
  }
}
