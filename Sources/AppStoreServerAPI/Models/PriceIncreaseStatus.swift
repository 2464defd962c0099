/// Whether the customer responded to a price increase that needs consent.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum PriceIncreaseStatus: OpenEnumeration {
  /// The customer has not responded (or the increase needs no consent). (`0`)
  case notResponded
  /// The customer consented, or was told of an increase that needs no consent. (`1`)
  case accepted
  /// A value this version does not know, kept as sent.
  case unknown(Int64)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: Int64) {
    switch rawValue {
    case 0: self = .notResponded
    case 1: self = .accepted
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: Int64 {
    switch self {
    case .notResponded: 0
    case .accepted: 1
    case .unknown(let value): value
    }
  }
}
