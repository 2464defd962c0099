import LegacyReceipts

/// A product of the simulated app.
public struct SimulatedProduct: Hashable, Sendable {
  /// The product id, such as `com.example.pro.monthly`.
  public var id: String
  /// Its kind.
  public var kind: ProductKind
  /// The subscription group, for auto-renewable subscriptions.
  public var group: String?
  /// The service level within the group: 1 is the highest (Apple's convention).
  public var level: Int
  /// The billing period in days (subscriptions and non-renewing passes).
  public var periodDays: Int?
  /// The price in milli-units of the currency.
  public var priceMilli: Int64

  /// Creates a product.
  ///
  /// - Parameters:
  ///   - id: the product id.
  ///   - kind: its kind.
  ///   - group: its subscription group.
  ///   - level: its service level (1 highest).
  ///   - periodDays: its period in days.
  ///   - priceMilli: its price in milli-units.
  public init(
    id: String, kind: ProductKind, group: String? = nil, level: Int = 1, periodDays: Int? = nil,
    priceMilli: Int64
  ) {
    self.id = id
    self.kind = kind
    self.group = group
    self.level = level
    self.periodDays = periodDays
    self.priceMilli = priceMilli
  }

  /// The catalogue of the simulated app: two subscription groups with monthly and yearly tiers,
  /// non-consumables, consumables and a non-renewing pass.
  public static let catalogue: [SimulatedProduct] = [
    SimulatedProduct(
      id: "com.example.plus.monthly", kind: .autoRenewable, group: "21000001", level: 1,
      periodDays: 30, priceMilli: 14_990),
    SimulatedProduct(
      id: "com.example.plus.yearly", kind: .autoRenewable, group: "21000001", level: 1,
      periodDays: 365, priceMilli: 129_990),
    SimulatedProduct(
      id: "com.example.pro.monthly", kind: .autoRenewable, group: "21000001", level: 2,
      periodDays: 30, priceMilli: 9_990),
    SimulatedProduct(
      id: "com.example.pro.yearly", kind: .autoRenewable, group: "21000001", level: 2,
      periodDays: 365, priceMilli: 89_990),
    SimulatedProduct(
      id: "com.example.storage.monthly", kind: .autoRenewable, group: "21000002", level: 1,
      periodDays: 30, priceMilli: 2_990),
    SimulatedProduct(
      id: "com.example.storage.yearly", kind: .autoRenewable, group: "21000002", level: 1,
      periodDays: 365, priceMilli: 29_990),
    SimulatedProduct(id: "com.example.filters.lifetime", kind: .nonConsumable, priceMilli: 19_990),
    SimulatedProduct(id: "com.example.brushes.pack", kind: .nonConsumable, priceMilli: 4_990),
    SimulatedProduct(id: "com.example.coins.100", kind: .consumable, priceMilli: 990),
    SimulatedProduct(id: "com.example.coins.500", kind: .consumable, priceMilli: 3_990),
    SimulatedProduct(
      id: "com.example.season.pass", kind: .nonRenewing, periodDays: 90, priceMilli: 24_990),
  ]
}
