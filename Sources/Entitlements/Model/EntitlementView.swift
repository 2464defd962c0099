import Chronology
import LegacyReceipts

/// One side's view of one entitlement key at one instant — the old logic's, the new logic's,
/// or the team's table's — in one shape so the sides compare field by field.
public struct EntitlementView: Hashable, Sendable {
  /// The group or product.
  public var key: EntitlementKey
  /// The status label.
  public var status: EntitlementStatus
  /// The product decided on.
  public var productId: String?
  /// The product's kind, when known.
  public var kind: ProductKind?
  /// The deciding transaction's expiry.
  public var expiresDate: Timestamp?
  /// The end of the billing grace period, when in grace.
  public var gracePeriodExpiresDate: Timestamp?
  /// `PURCHASED`, `FAMILY_SHARED` or another raw value.
  public var ownership: String?
  /// Whether the subscription will renew.
  public var autoRenewStatus: Bool?
  /// Why it expired (1–5), when it did.
  public var expirationIntent: Int64?
  /// When it was revoked.
  public var revocationDate: Timestamp?
  /// `REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE` (the API only).
  public var revocationType: String?
  /// The refunded share in milli-units (the API only).
  public var revocationPercentage: Int64?
  /// The offer type of the deciding transaction (1–4), when one applied.
  public var offerType: Int64?
  /// The original transaction decided on.
  public var originalTransactionId: String?
  /// The deciding transaction.
  public var transactionId: String?
  /// The side's own short reason, such as "active until 2025-11-20T00:00:00Z".
  public var reason: String?
  /// A non-renewing subscription whose duration the catalogue does not give: the comparison
  /// cannot say whether it still grants access (`duration_unknown`).
  public var isDurationUnknown = false
  /// What the deciding transaction cost, in thousandths of `currency` (the App Store side only:
  /// legacy receipts carry no price).
  public var price: Int64?
  /// The ISO 4217 code of `price`.
  public var currency: String?
  /// When the deciding transaction was bought: with `expiresDate`, the period a subscription's
  /// price pays for.
  public var purchaseDate: Timestamp?

  /// Creates a view.
  ///
  /// - Parameters:
  ///   - key: the group or product.
  ///   - status: the status label.
  public init(key: EntitlementKey, status: EntitlementStatus) {
    self.key = key
    self.status = status
  }

  /// Whether the customer has access: active or grace period.
  public var isEntitled: Bool { status.isEntitled }
}
