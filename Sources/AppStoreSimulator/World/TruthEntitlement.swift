import Chronology
import LegacyReceipts

/// What the App Store's data says about one entitlement key of one customer at an instant —
/// the simulator's own ground truth, computed from the world rather than from signed data.
public struct TruthEntitlement: Hashable, Sendable {
  /// The group or product.
  public var key: EntitlementKey
  /// The status label.
  public var status: EntitlementStatus
  /// The product.
  public var productId: String
  /// The deciding transaction's expiry (subscriptions).
  public var expiresDate: Timestamp?
  /// How it was revoked, when revoked.
  public var revocation: Revocation?
  /// Purchased or family shared.
  public var ownership: OwnershipType
  /// The deciding transaction.
  public var transactionId: String
  /// Its original transaction.
  public var originalTransactionId: String

  /// Creates an entitlement.
  public init(
    key: EntitlementKey, status: EntitlementStatus, productId: String, expiresDate: Timestamp?,
    revocation: Revocation?,
    ownership: OwnershipType, transactionId: String, originalTransactionId: String
  ) {
    self.key = key
    self.status = status
    self.productId = productId
    self.expiresDate = expiresDate
    self.revocation = revocation
    self.ownership = ownership
    self.transactionId = transactionId
    self.originalTransactionId = originalTransactionId
  }
}
