/// What kind of in-app product a product id is — the Server API's transaction `type`.
public enum ProductKind: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
  /// An auto-renewable subscription.
  case autoRenewable = "auto_renewable"
  /// A non-consumable (owned for ever unless refunded).
  case nonConsumable = "non_consumable"
  /// A consumable (used up; never an entitlement).
  case consumable
  /// A non-renewing subscription.
  case nonRenewing = "non_renewing"

  /// Reads a kind from the catalogue spellings, including the Server API's `type` values
  /// (`Auto-Renewable Subscription`) and the history filter's (`AUTO_RENEWABLE`).
  ///
  /// - Parameter text: the spelling.
  public init?(parsing text: String) {
    let normalised = text.lowercased().replacingOccurrences(of: "-", with: "_")
      .replacingOccurrences(of: " ", with: "_")
    switch normalised {
    case "auto_renewable", "auto_renewable_subscription", "autorenewable", "subscription":
      self = .autoRenewable
    case "non_consumable", "nonconsumable": self = .nonConsumable
    case "consumable": self = .consumable
    case "non_renewing", "non_renewing_subscription", "nonrenewing": self = .nonRenewing
    default: return nil
    }
  }

  /// The stable text, such as `auto_renewable`.
  public var description: String { rawValue }
}
