/// The token audit of one account: every purchase of its customers, checked against the token
/// the team's mapping gives the account.
public struct AccountTokenAudit: Hashable, Sendable {
  /// The team's account id.
  public var accountId: String
  /// The account's token in the mapping, if any.
  public var expectedToken: String?
  /// Every purchase, by customer and original transaction id.
  public var purchases: [PurchaseToken]

  /// Creates an account's audit.
  public init(accountId: String, expectedToken: String?, purchases: [PurchaseToken]) {
    self.accountId = accountId
    self.expectedToken = expectedToken
    self.purchases = purchases
  }

  /// The account's finding: the most important of its purchases' (``TokenFinding/different``
  /// first), or `nil` when the account has no purchase at all.
  public var finding: TokenFinding? {
    purchases.map(\.finding).min()
  }

  /// The purchases `link` would set a token on.
  public var writes: [PurchaseToken] {
    purchases.filter { $0.finding.needsWrite }
  }
}
