/// One row of the team's table as a run compared it.
public struct CurrentEntitlementRow: Hashable, Sendable {
  /// The account.
  public var accountId: String
  /// The product.
  public var productId: String
  /// The status label.
  public var status: String
  /// The expiry (Unix ms), if any.
  public var expiresMilliseconds: Int64?

  /// Creates a row.
  public init(accountId: String, productId: String, status: String, expiresMilliseconds: Int64?) {
    self.accountId = accountId
    self.productId = productId
    self.status = status
    self.expiresMilliseconds = expiresMilliseconds
  }
}
