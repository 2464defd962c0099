/// The kind of product a transaction is for (the `type` field).
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum TransactionType: OpenEnumeration {
  /// An auto-renewable subscription. (`Auto-Renewable Subscription`)
  case autoRenewableSubscription
  /// A one-time purchase that is never used up. (`Non-Consumable`)
  case nonConsumable
  /// A purchase that is used up and can be bought again. (`Consumable`)
  case consumable
  /// A subscription for a fixed period that does not renew. (`Non-Renewing Subscription`)
  case nonRenewingSubscription
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: String) {
    switch rawValue {
    case "Auto-Renewable Subscription": self = .autoRenewableSubscription
    case "Non-Consumable": self = .nonConsumable
    case "Consumable": self = .consumable
    case "Non-Renewing Subscription": self = .nonRenewingSubscription
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: String {
    switch self {
    case .autoRenewableSubscription: "Auto-Renewable Subscription"
    case .nonConsumable: "Non-Consumable"
    case .consumable: "Consumable"
    case .nonRenewingSubscription: "Non-Renewing Subscription"
    case .unknown(let value): value
    }
  }
}
