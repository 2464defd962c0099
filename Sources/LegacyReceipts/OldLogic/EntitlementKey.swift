/// What an entitlement is about: a subscription group or a one-time product. The same keys
/// are derived from legacy receipts and from Server API data, so the two sides line up.
public enum EntitlementKey: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// An auto-renewable subscription group (`subscription_group_identifier`); when a legacy
  /// receipt never names the group, `original:<original_transaction_id>` stands in for it.
  case subscriptionGroup(String)
  /// A one-time product (non-consumable or non-renewing subscription), by product id.
  case product(String)

  /// `group:20000001` or `product:com.example.lifetime`.
  public var description: String {
    switch self {
    case .subscriptionGroup(let group): return "group:\(group)"
    case .product(let product): return "product:\(product)"
    }
  }

  /// Orders keys by their text, for deterministic reports.
  public static func < (lhs: EntitlementKey, rhs: EntitlementKey) -> Bool {
    lhs.description < rhs.description
  }
}
