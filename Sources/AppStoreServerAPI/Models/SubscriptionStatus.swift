/// The status of an auto-renewable subscription.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum SubscriptionStatus: OpenEnumeration {
  /// Active. (`1`)
  case active
  /// Expired. (`2`)
  case expired
  /// In the billing retry period. (`3`)
  case billingRetry
  /// In the billing grace period. (`4`)
  case billingGracePeriod
  /// Revoked: refunded, or removed from Family Sharing. (`5`)
  case revoked
  /// A value this version does not know, kept as sent.
  case unknown(Int64)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: Int64) {
    switch rawValue {
    case 1: self = .active
    case 2: self = .expired
    case 3: self = .billingRetry
    case 4: self = .billingGracePeriod
    case 5: self = .revoked
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: Int64 {
    switch self {
    case .active: 1
    case .expired: 2
    case .billingRetry: 3
    case .billingGracePeriod: 4
    case .revoked: 5
    case .unknown(let value): value
    }
  }

  /// Whether the customer is entitled to the subscription's service: active (1) or in the
  /// billing grace period (4).
  public var isEntitled: Bool { self == .active || self == .billingGracePeriod }
}
