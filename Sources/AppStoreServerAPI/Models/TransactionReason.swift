/// Why a transaction happened.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum TransactionReason: OpenEnumeration {
  /// The customer bought the product. (`PURCHASE`)
  case purchase
  /// The App Store renewed a subscription. (`RENEWAL`)
  case renewal
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: String) {
    switch rawValue {
    case "PURCHASE": self = .purchase
    case "RENEWAL": self = .renewal
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: String {
    switch self {
    case .purchase: "PURCHASE"
    case .renewal: "RENEWAL"
    case .unknown(let value): value
    }
  }
}
