/// How an offer is paid for.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum OfferDiscountType: OpenEnumeration {
  /// A free trial. (`FREE_TRIAL`)
  case freeTrial
  /// A reduced price for several periods. (`PAY_AS_YOU_GO`)
  case payAsYouGo
  /// A reduced price paid once for the offer's duration. (`PAY_UP_FRONT`)
  case payUpFront
  /// A one-time charge for the offer, as Apple's current libraries model it. (`ONE_TIME`)
  case oneTime
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: String) {
    switch rawValue {
    case "FREE_TRIAL": self = .freeTrial
    case "PAY_AS_YOU_GO": self = .payAsYouGo
    case "PAY_UP_FRONT": self = .payUpFront
    case "ONE_TIME": self = .oneTime
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: String {
    switch self {
    case .freeTrial: "FREE_TRIAL"
    case .payAsYouGo: "PAY_AS_YOU_GO"
    case .payUpFront: "PAY_UP_FRONT"
    case .oneTime: "ONE_TIME"
    case .unknown(let value): value
    }
  }
}
