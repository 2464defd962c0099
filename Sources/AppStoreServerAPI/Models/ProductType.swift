/// A product type, as the transaction history filter `productType` names it.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum ProductType: OpenEnumeration {
  /// Auto-renewable subscriptions. (`AUTO_RENEWABLE`)
  case autoRenewable
  /// Non-renewing subscriptions. (`NON_RENEWABLE`)
  case nonRenewable
  /// Consumables. (`CONSUMABLE`)
  case consumable
  /// Non-consumables. (`NON_CONSUMABLE`)
  case nonConsumable
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: String) {
    switch rawValue {
    case "AUTO_RENEWABLE": self = .autoRenewable
    case "NON_RENEWABLE": self = .nonRenewable
    case "CONSUMABLE": self = .consumable
    case "NON_CONSUMABLE": self = .nonConsumable
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: String {
    switch self {
    case .autoRenewable: "AUTO_RENEWABLE"
    case .nonRenewable: "NON_RENEWABLE"
    case .consumable: "CONSUMABLE"
    case .nonConsumable: "NON_CONSUMABLE"
    case .unknown(let value): value
    }
  }
}
