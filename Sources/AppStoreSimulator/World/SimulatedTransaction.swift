import Chronology
import LegacyReceipts

/// One transaction of a simulated customer, with the facts that change over time (an upgrade,
/// a revocation) dated, so the world can say what was true at any instant.
public struct SimulatedTransaction: Hashable, Sendable {
  /// `transactionId`
  public var transactionId: String
  /// `originalTransactionId`
  public var originalTransactionId: String
  /// `webOrderLineItemId` (subscriptions)
  public var webOrderLineItemId: String?
  /// `productId`
  public var productId: String
  /// The product's kind.
  public var kind: ProductKind
  /// `subscriptionGroupIdentifier`
  public var group: String?
  /// `purchaseDate`
  public var purchaseDate: Timestamp
  /// `originalPurchaseDate`
  public var originalPurchaseDate: Timestamp
  /// `expiresDate` (subscriptions and non-renewing passes)
  public var expiresDate: Timestamp?
  /// `quantity`
  public var quantity: Int64
  /// `inAppOwnershipType`: purchased, or shared by a family organiser.
  public var ownership: OwnershipType
  /// `transactionReason`: `PURCHASE` or `RENEWAL`.
  public var reason: String
  /// The offer that applied, if any.
  public var offer: Offer?
  /// `price` in milli-units.
  public var priceMilli: Int64
  /// When the customer upgraded away from this transaction (`isUpgraded` from then on).
  public var upgradedAt: Timestamp?
  /// When and how it was revoked.
  public var revocation: Revocation?
  /// `appAccountToken`, when the app (or `set app account token`) set one.
  public var appAccountToken: String?

  /// Creates a transaction.
  public init(
    transactionId: String, originalTransactionId: String, webOrderLineItemId: String?,
    productId: String,
    kind: ProductKind, group: String?, purchaseDate: Timestamp, originalPurchaseDate: Timestamp,
    expiresDate: Timestamp?, quantity: Int64 = 1, ownership: OwnershipType, reason: String,
    offer: Offer? = nil,
    priceMilli: Int64, upgradedAt: Timestamp? = nil, revocation: Revocation? = nil,
    appAccountToken: String? = nil
  ) {
    self.transactionId = transactionId
    self.originalTransactionId = originalTransactionId
    self.webOrderLineItemId = webOrderLineItemId
    self.productId = productId
    self.kind = kind
    self.group = group
    self.purchaseDate = purchaseDate
    self.originalPurchaseDate = originalPurchaseDate
    self.expiresDate = expiresDate
    self.quantity = quantity
    self.ownership = ownership
    self.reason = reason
    self.offer = offer
    self.priceMilli = priceMilli
    self.upgradedAt = upgradedAt
    self.revocation = revocation
    self.appAccountToken = appAccountToken
  }

  /// Whether the customer had upgraded away from it by `instant`.
  ///
  /// - Parameter instant: the instant asked about.
  public func isUpgraded(at instant: Timestamp) -> Bool {
    upgradedAt.map { $0 <= instant } ?? false
  }

  /// The revocation, if it had happened by `instant` and was not reversed by then.
  ///
  /// - Parameter instant: the instant asked about.
  public func revocation(at instant: Timestamp) -> Revocation? {
    revocation.flatMap { $0.isInEffect(at: instant) ? $0 : nil }
  }

  /// When the transaction last changed, as seen at `instant`: the history endpoint sorts by it.
  ///
  /// - Parameter instant: the instant asked about.
  public func lastModified(at instant: Timestamp) -> Timestamp {
    var modified = purchaseDate
    if let upgraded = upgradedAt, upgraded <= instant { modified = max(modified, upgraded) }
    if let revoked = revocation?.date, revoked <= instant { modified = max(modified, revoked) }
    if let reversed = revocation?.reversedAt, reversed <= instant {
      modified = max(modified, reversed)
    }
    return modified
  }
}
