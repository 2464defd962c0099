/// The detail of an App Store server notification's type.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum NotificationSubtype: OpenEnumeration {
  /// `INITIAL_BUY`.
  case initialBuy
  /// `RESUBSCRIBE`.
  case resubscribe
  /// `DOWNGRADE`.
  case downgrade
  /// `UPGRADE`.
  case upgrade
  /// `AUTO_RENEW_ENABLED`.
  case autoRenewEnabled
  /// `AUTO_RENEW_DISABLED`.
  case autoRenewDisabled
  /// `VOLUNTARY`.
  case voluntary
  /// `BILLING_RETRY`.
  case billingRetry
  /// `PRICE_INCREASE`.
  case priceIncrease
  /// `GRACE_PERIOD`.
  case gracePeriod
  /// `PENDING`.
  case pending
  /// `ACCEPTED`.
  case accepted
  /// `BILLING_RECOVERY`.
  case billingRecovery
  /// `PRODUCT_NOT_FOR_SALE`.
  case productNotForSale
  /// `SUMMARY`.
  case summary
  /// `FAILURE`.
  case failure
  /// `UNREPORTED`.
  case unreported
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: String) {
    switch rawValue {
    case "INITIAL_BUY": self = .initialBuy
    case "RESUBSCRIBE": self = .resubscribe
    case "DOWNGRADE": self = .downgrade
    case "UPGRADE": self = .upgrade
    case "AUTO_RENEW_ENABLED": self = .autoRenewEnabled
    case "AUTO_RENEW_DISABLED": self = .autoRenewDisabled
    case "VOLUNTARY": self = .voluntary
    case "BILLING_RETRY": self = .billingRetry
    case "PRICE_INCREASE": self = .priceIncrease
    case "GRACE_PERIOD": self = .gracePeriod
    case "PENDING": self = .pending
    case "ACCEPTED": self = .accepted
    case "BILLING_RECOVERY": self = .billingRecovery
    case "PRODUCT_NOT_FOR_SALE": self = .productNotForSale
    case "SUMMARY": self = .summary
    case "FAILURE": self = .failure
    case "UNREPORTED": self = .unreported
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: String {
    switch self {
    case .initialBuy: "INITIAL_BUY"
    case .resubscribe: "RESUBSCRIBE"
    case .downgrade: "DOWNGRADE"
    case .upgrade: "UPGRADE"
    case .autoRenewEnabled: "AUTO_RENEW_ENABLED"
    case .autoRenewDisabled: "AUTO_RENEW_DISABLED"
    case .voluntary: "VOLUNTARY"
    case .billingRetry: "BILLING_RETRY"
    case .priceIncrease: "PRICE_INCREASE"
    case .gracePeriod: "GRACE_PERIOD"
    case .pending: "PENDING"
    case .accepted: "ACCEPTED"
    case .billingRecovery: "BILLING_RECOVERY"
    case .productNotForSale: "PRODUCT_NOT_FOR_SALE"
    case .summary: "SUMMARY"
    case .failure: "FAILURE"
    case .unreported: "UNREPORTED"
    case .unknown(let value): value
    }
  }
}
