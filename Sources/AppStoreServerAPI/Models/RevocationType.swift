/// How a transaction was revoked.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum RevocationType: OpenEnumeration {
  /// A full refund. (`REFUND_FULL`)
  case refundFull
  /// A partial refund; see `revocationPercentage`. (`REFUND_PRORATED`)
  case refundProrated
  /// Access ended because the customer left Family Sharing. (`FAMILY_REVOKE`)
  case familyRevoke
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: String) {
    switch rawValue {
    case "REFUND_FULL": self = .refundFull
    case "REFUND_PRORATED": self = .refundProrated
    case "FAMILY_REVOKE": self = .familyRevoke
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: String {
    switch self {
    case .refundFull: "REFUND_FULL"
    case .refundProrated: "REFUND_PRORATED"
    case .familyRevoke: "FAMILY_REVOKE"
    case .unknown(let value): value
    }
  }
}
