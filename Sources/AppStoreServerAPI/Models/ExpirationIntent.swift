/// Why a subscription expired.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum ExpirationIntent: OpenEnumeration {
  /// The customer cancelled. (`1`)
  case customerCancelled
  /// A billing error. (`2`)
  case billingError
  /// The customer did not consent to a price increase. (`3`)
  case priceIncreaseDeclined
  /// The product was not available at renewal. (`4`)
  case productUnavailable
  /// Another reason. (`5`)
  case other
  /// A value this version does not know, kept as sent.
  case unknown(Int64)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: Int64) {
    switch rawValue {
    case 1: self = .customerCancelled
    case 2: self = .billingError
    case 3: self = .priceIncreaseDeclined
    case 4: self = .productUnavailable
    case 5: self = .other
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: Int64 {
    switch self {
    case .customerCancelled: 1
    case .billingError: 2
    case .priceIncreaseDeclined: 3
    case .productUnavailable: 4
    case .other: 5
    case .unknown(let value): value
    }
  }
}
