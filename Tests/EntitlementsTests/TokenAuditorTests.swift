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

/// Two account ids that differ only in Unicode normalization are two accounts in the store;
/// the mapping must give each its own token and the audit must call the other's token a leak.
/// Kind of evidence: this project's code against expectations written here.
@Suite("appAccountToken mapping: account ids equal only up to Unicode normalization")
struct EquivalentAccountTokenTests {
  static let composed = "jos\u{E9}@example.com"
  static let decomposed = "jose\u{301}@example.com"

  @Test("each of the two accounts keeps its own token; one token cannot serve both")
  func ownTokens() {
    var mapping = AccountTokenMapping()
    #expect(mapping.add(token: TokenAuditorTests.mine, forAccount: Self.composed) == nil)
    #expect(mapping.add(token: TokenAuditorTests.theirs, forAccount: Self.decomposed) == nil)
    #expect(mapping.token(forAccount: Self.composed) == TokenAuditorTests.mine)
    #expect(mapping.token(forAccount: Self.decomposed) == TokenAuditorTests.theirs)
    #expect(mapping.tokenByAccount.count == 2)
    let holder = mapping.account(owning: TokenAuditorTests.theirs)
    #expect(holder.map { Array($0.utf8) } == Array(Self.decomposed.utf8))
    #expect(mapping.add(token: TokenAuditorTests.mine, forAccount: Self.decomposed) != nil)
  }

  @Test("a purchase carrying the other account's token is a leak that names it")
  func leakNamesTheOther() {
    var mapping = AccountTokenMapping()
    mapping.add(token: TokenAuditorTests.mine, forAccount: Self.composed)
    mapping.add(token: TokenAuditorTests.theirs, forAccount: Self.decomposed)
    let audit = TokenAuditor(mapping: mapping).audit(
      accountId: Self.composed,
      customers: [
        .init(
          key: "c1", environment: "Production",
          transactions: [
            TokenAuditorTests.transaction(
              "10", original: "10", at: 1, token: TokenAuditorTests.theirs)
          ], writtenTokens: [:])
      ])
    #expect(audit.expectedToken == TokenAuditorTests.mine)
    #expect(audit.purchases.map(\.finding) == [.different])
    #expect(audit.purchases[0].tokenOwner.map { Array($0.utf8) } == Array(Self.decomposed.utf8))
  }
}
