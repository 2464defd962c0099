/// Whether an order id look-up found a valid order.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum OrderLookupStatus: OpenEnumeration {
  /// The order id is valid. (`0`)
  case valid
  /// The order id is invalid. (`1`)
  case invalid
  /// A value this version does not know, kept as sent.
  case unknown(Int64)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: Int64) {
    switch rawValue {
    case 0: self = .valid
    case 1: self = .invalid
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: Int64 {
    switch self {
    case .valid: 0
    case .invalid: 1
    case .unknown(let value): value
    }
  }
}
