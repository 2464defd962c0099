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
  /// The customer's id the row names (`original_transaction_id`, else `app_transaction_id`),
  /// when the table carries one: an account the legacy data does not hold is backfilled from it.
  public var customerId: String?

  /// Creates a row.
  public init(
    productId: String, status: EntitlementStatus, expiresAt: Timestamp?, customerId: String? = nil
  ) {
    self.productId = productId
    self.status = status
    self.expiresAt = expiresAt
    self.customerId = customerId
  }
}
