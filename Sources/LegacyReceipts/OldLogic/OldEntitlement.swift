import Chronology

/// What the old, receipt-based logic decides for one subscription group or one-time product
/// at one instant, with the evidence it decided on.
public struct OldEntitlement: Hashable, Sendable {
  /// The group or product.
  public var key: EntitlementKey
  /// The status label.
  public var status: EntitlementStatus
  /// Whether the customer has access (active or grace period).
  public var isEntitled: Bool { status.isEntitled }
  /// The product the decision is about (the active one, or the latest one).
  public var productId: String?
  /// The kind of product.
  public var kind: ProductKind
  /// The expiry of the deciding transaction (subscriptions).
  public var expiresDate: Timestamp?
  /// The end of the grace period, when in grace.
  public var gracePeriodExpiresDate: Timestamp?
  /// Purchased or family shared.
  public var ownership: OwnershipType?
  /// Why the subscription expired, when it did and the receipt says.
  public var expirationIntent: ExpirationIntent?
  /// Whether the subscription will renew, from `pending_renewal_info`.
  public var autoRenewStatus: Bool?
  /// The original transaction the decision is about.
  public var originalTransactionId: String?
  /// The transaction that decided it.
  public var transactionId: String?
  /// When the deciding transaction was revoked, for revoked entitlements.
  public var revocationDate: Timestamp?
  /// A short human reason: "active until 2024-03-01T00:00:00Z".
  public var reason: String
  /// A non-renewing subscription whose duration the catalogue does not give: whether it still
  /// grants access is unknown, and it is never taken as owned forever.
  public var isDurationUnknown = false

  /// Creates an entitlement.
  ///
  /// - Parameters:
  ///   - key: the group or product.
  ///   - status: the status label.
  ///   - kind: the product kind.
  ///   - reason: a short human reason.
  public init(key: EntitlementKey, status: EntitlementStatus, kind: ProductKind, reason: String) {
    self.key = key
    self.status = status
    self.kind = kind
    self.reason = reason
  }
}
