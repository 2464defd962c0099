/// Why the App Store refunded or revoked a transaction.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum RevocationReason: OpenEnumeration {
  /// Another reason, such as an accidental purchase. (`0`)
  case other
  /// An actual or perceived issue within the app. (`1`)
  case appIssue
  /// A value this version does not know, kept as sent.
  case unknown(Int64)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: Int64) {
    switch rawValue {
    case 0: self = .other
    case 1: self = .appIssue
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: Int64 {
    switch self {
    case .other: 0
    case .appIssue: 1
    case .unknown(let value): value
    }
  }
}
