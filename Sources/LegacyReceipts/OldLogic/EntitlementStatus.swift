/// The five status labels the App Store Server API uses for a subscription, derived by both
/// the old and the new logic so the two sides compare label to label. One-time purchases use
/// `active` (owned) and `revoked`.
public enum EntitlementStatus: String, CaseIterable, Hashable, Sendable, Comparable,
  CustomStringConvertible
{
  /// Paid up and current (status 1).
  case active
  /// Lapsed (status 2).
  case expired
  /// Renewal failed and Apple is retrying; no access (status 3).
  case billingRetry = "billing_retry"
  /// Renewal failed but access continues during the grace period (status 4).
  case gracePeriod = "grace_period"
  /// Refunded or removed from Family Sharing (status 5).
  case revoked

  /// Whether the status grants access: active or grace period.
  public var isEntitled: Bool { self == .active || self == .gracePeriod }

  /// The Server API's numeric status for this label.
  public var serverAPIStatus: Int {
    switch self {
    case .active: return 1
    case .expired: return 2
    case .billingRetry: return 3
    case .gracePeriod: return 4
    case .revoked: return 5
    }
  }

  /// The label for a Server API status (1–5), or `nil` for other values.
  ///
  /// - Parameter serverAPIStatus: the numeric status.
  public init?(serverAPIStatus: Int64) {
    switch serverAPIStatus {
    case 1: self = .active
    case 2: self = .expired
    case 3: self = .billingRetry
    case 4: self = .gracePeriod
    case 5: self = .revoked
    default: return nil
    }
  }

  /// The stable text, such as `billing_retry`.
  public var description: String { rawValue }

  /// Orders labels by their stable text, for deterministic reports.
  public static func < (lhs: EntitlementStatus, rhs: EntitlementStatus) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}
