/// The old logic's verdict for one entitlement key of one legacy record at one instant.
public struct OldEntitlementRow: Hashable, Sendable {
  /// The instant evaluated (Unix ms).
  public var asOfMilliseconds: Int64
  /// `capture` (the record's own capture instant) or `as_of` (a caller-given instant).
  public var basis: String
  /// `group:<id>` or `product:<id>`.
  public var entitlementKey: String
  /// The product kind.
  public var kind: String
  /// The status label.
  public var status: String
  /// Whether access is granted.
  public var isEntitled: Bool
  /// The product decided on.
  public var productId: String?
  /// The deciding expiry (Unix ms).
  public var expiresMilliseconds: Int64?
  /// The end of the grace period (Unix ms).
  public var gracePeriodExpiresMilliseconds: Int64?
  /// `PURCHASED` or `FAMILY_SHARED`.
  public var ownership: String?
  /// The expiration intent code.
  public var expirationIntent: Int64?
  /// The auto-renew status.
  public var autoRenewStatus: Bool?
  /// The original transaction decided on.
  public var originalTransactionId: String?
  /// The deciding transaction.
  public var transactionId: String?
  /// The revocation instant (Unix ms).
  public var revocationMilliseconds: Int64?
  /// The short human reason.
  public var reason: String

  /// Creates a row with the required fields; the rest default to absent.
  ///
  /// - Parameters:
  ///   - asOfMilliseconds: the instant evaluated.
  ///   - basis: `capture` or `as_of`.
  ///   - entitlementKey: the key.
  ///   - kind: the product kind.
  ///   - status: the status label.
  ///   - isEntitled: whether access is granted.
  ///   - reason: the short human reason.
  public init(
    asOfMilliseconds: Int64, basis: String, entitlementKey: String, kind: String, status: String,
    isEntitled: Bool, reason: String
  ) {
    self.asOfMilliseconds = asOfMilliseconds
    self.basis = basis
    self.entitlementKey = entitlementKey
    self.kind = kind
    self.status = status
    self.isEntitled = isEntitled
    self.reason = reason
  }
}
