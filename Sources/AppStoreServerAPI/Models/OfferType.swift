/// The kind of offer a transaction or renewal uses.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum OfferType: OpenEnumeration {
  /// An introductory offer. (`1`)
  case introductory
  /// A promotional offer. (`2`)
  case promotional
  /// An offer code. (`3`)
  case offerCode
  /// A win-back offer. (`4`)
  case winBack
  /// A value this version does not know, kept as sent.
  case unknown(Int64)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: Int64) {
    switch rawValue {
    case 1: self = .introductory
    case 2: self = .promotional
    case 3: self = .offerCode
    case 4: self = .winBack
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: Int64 {
    switch self {
    case .introductory: 1
    case .promotional: 2
    case .offerCode: 3
    case .winBack: 4
    case .unknown(let value): value
    }
  }
}
