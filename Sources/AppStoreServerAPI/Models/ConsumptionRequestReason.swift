/// Why a customer asked for a refund of a purchase, in a `CONSUMPTION_REQUEST` notification.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum ConsumptionRequestReason: OpenEnumeration {
  /// The customer did not mean to buy it. (`UNINTENDED_PURCHASE`)
  case unintendedPurchase
  /// The customer did not receive the content. (`FULFILLMENT_ISSUE`)
  case fulfillmentIssue
  /// The customer was not satisfied with it. (`UNSATISFIED_WITH_PURCHASE`)
  case unsatisfiedWithPurchase
  /// A legal reason. (`LEGAL`)
  case legal
  /// Another reason. (`OTHER`)
  case other
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: String) {
    switch rawValue {
    case "UNINTENDED_PURCHASE": self = .unintendedPurchase
    case "FULFILLMENT_ISSUE": self = .fulfillmentIssue
    case "UNSATISFIED_WITH_PURCHASE": self = .unsatisfiedWithPurchase
    case "LEGAL": self = .legal
    case "OTHER": self = .other
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: String {
    switch self {
    case .unintendedPurchase: "UNINTENDED_PURCHASE"
    case .fulfillmentIssue: "FULFILLMENT_ISSUE"
    case .unsatisfiedWithPurchase: "UNSATISFIED_WITH_PURCHASE"
    case .legal: "LEGAL"
    case .other: "OTHER"
    case .unknown(let value): value
    }
  }
}
