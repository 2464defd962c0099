import Chronology

/// How and when a transaction was taken back: a refund, a prorated refund, or removal from
/// Family Sharing.
public struct Revocation: Hashable, Sendable {
  /// `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE`.
  public enum Kind: String, CaseIterable, Hashable, Sendable {
    /// A full refund.
    case refundFull = "REFUND_FULL"
    /// A partial refund, which legacy receipts cannot represent.
    case refundProrated = "REFUND_PRORATED"
    /// The family organiser stopped sharing, or the member left the family.
    case familyRevoke = "FAMILY_REVOKE"
  }

  /// When it happened.
  public var date: Timestamp
  /// What it was.
  public var kind: Kind
  /// `revocationReason`: 1 an issue in the app, 0 another reason.
  public var reason: Int64
  /// `revocationPercentage` in milli-units (50000 = 50 %), for prorated refunds.
  public var percentageMilli: Int64?
  /// When the App Store reversed the refund (`REFUND_REVERSED`), giving the purchase back; from
  /// then on the transaction is no longer revoked.
  public var reversedAt: Timestamp?

  /// Creates a revocation.
  ///
  /// - Parameters:
  ///   - date: when it happened.
  ///   - kind: what it was.
  ///   - reason: 1 app issue, 0 other.
  ///   - percentageMilli: the refunded share, for prorated refunds.
  ///   - reversedAt: when the refund was reversed, if it was.
  public init(
    date: Timestamp, kind: Kind, reason: Int64, percentageMilli: Int64? = nil,
    reversedAt: Timestamp? = nil
  ) {
    self.date = date
    self.kind = kind
    self.reason = reason
    self.percentageMilli = percentageMilli
    self.reversedAt = reversedAt
  }

  /// Whether the revocation stands at `instant`: it has happened and has not been reversed.
  ///
  /// - Parameter instant: the instant asked about.
  public func isInEffect(at instant: Timestamp) -> Bool {
    date <= instant && !(reversedAt.map { $0 <= instant } ?? false)
  }
}
