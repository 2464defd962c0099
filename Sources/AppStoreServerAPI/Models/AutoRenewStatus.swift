/// Whether a subscription renews at the end of its period.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum AutoRenewStatus: OpenEnumeration {
  /// Automatic renewal is off. (`0`)
  case off
  /// Automatic renewal is on. (`1`)
  case on
  /// A value this version does not know, kept as sent.
  case unknown(Int64)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: Int64) {
    switch rawValue {
    case 0: self = .off
    case 1: self = .on
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: Int64 {
    switch self {
    case .off: 0
    case .on: 1
    case .unknown(let value): value
    }
  }
}
