import Chronology
import LegacyReceipts

/// One row of the team's current entitlement table (`--current-entitlements`):
/// `account_id,product_id,status,expires_at`.
public struct TableRow: Hashable, Sendable {
  /// The product.
  public var productId: String
  /// The status label the team's system holds.
  public var status: EntitlementStatus
  /// The expiry it holds, if any.
  public var expiresAt: Timestamp?

  /// Creates a row.
  public init(productId: String, status: EntitlementStatus, expiresAt: Timestamp?) {
    self.productId = productId
    self.status = status
    self.expiresAt = expiresAt
  }
}
