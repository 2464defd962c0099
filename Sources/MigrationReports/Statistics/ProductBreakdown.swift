import Entitlements

/// One product's (or one subscription group's) share of a run: how many accounts and keys it
/// appears in, and how its keys are classified. Keys are counted where they rest: a
/// subscription group's key under the product either side names for it.
struct ProductBreakdown: Hashable, Sendable {
  /// The product id (the App Store side's, else the legacy or table side's).
  var productId: String
  /// The subscription group, empty for a product outside groups.
  var group: String
  /// Accounts with a key of this product.
  var accounts = 0
  /// Keys of this product, by their category.
  var byCategory: [DiscrepancyCategory: Int] = [:]
  /// What this product's differing keys are worth, per currency (see ``MoneyAtStake``).
  var atStake: [String: MoneyAtStake.Amounts] = [:]

  /// Keys of this product.
  var keys: Int { byCategory.values.reduce(0, +) }

  /// Keys of this product whose category is not `match`.
  var differing: Int { keys - (byCategory[.match] ?? 0) }

  /// Tallies every key of the comparisons by product, sorted by keys that differ (most first),
  /// then by product id.
  static func tally(_ comparisons: [AccountComparison]) -> [ProductBreakdown] {
    var products: [String: ProductBreakdown] = [:]
    for comparison in comparisons { add(comparison, to: &products) }
    return sorted(products)
  }

  /// Counts one account's keys into running totals by product id.
  static func add(_ comparison: AccountComparison, to products: inout [String: ProductBreakdown]) {
    var seen: Set<String> = []
    for key in comparison.keys {
      let productId = key.productId ?? key.key.description
      let group = key.subscriptionGroup ?? ""
      var entry = products[productId] ?? ProductBreakdown(productId: productId, group: group)
      entry.byCategory[key.category, default: 0] += 1
      if key.category != .match, let (currency, amounts) = MoneyAtStake.value(of: key) {
        MoneyAtStake.merge(amounts, into: &entry.atStake[currency])
      }
      if seen.insert(productId).inserted { entry.accounts += 1 }
      products[productId] = entry
    }
  }

  /// Running totals in report order: most differing keys first, then by product id.
  static func sorted(_ products: [String: ProductBreakdown]) -> [ProductBreakdown] {
    products.values.sorted {
      ($0.differing, $1.productId) > ($1.differing, $0.productId)
    }
  }
}
