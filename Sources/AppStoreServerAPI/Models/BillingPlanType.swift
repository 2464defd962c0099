/// How a subscription with a commitment is billed: `billingPlanType` of a transaction,
/// `renewalBillingPlanType` and `commitmentRenewalBillingPlanType` of renewal information.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum BillingPlanType: OpenEnumeration {
  /// The whole commitment is charged at its start. (`BILLED_UPFRONT`)
  case billedUpFront
  /// The commitment is charged month by month. (`MONTHLY`)
  case monthly
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: String) {
    switch rawValue {
    case "BILLED_UPFRONT": self = .billedUpFront
    case "MONTHLY": self = .monthly
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: String {
    switch self {
    case .billedUpFront: "BILLED_UPFRONT"
    case .monthly: "MONTHLY"
    case .unknown(let value): value
    }
  }
}
