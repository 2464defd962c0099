import Entitlements

/// What the differences are worth, from the App Store side's deciding transactions, per
/// currency — never converted: a rate is the user's choice, not the tool's.
///
/// A subscription key counts its recurring revenue normalised to a month: the transaction's
/// price times 30.4375 days over its own period (expiry minus purchase), so a yearly price
/// counts a twelfth. Any other product (one-time purchases, non-renewing subscriptions) counts
/// its price once. Keys whose category is `match` count nothing; a key without a price or
/// currency (legacy-only keys, old data) is counted apart as unpriced.
struct MoneyAtStake: Hashable, Sendable {
  /// Sums in thousandths of a currency unit.
  struct Amounts: Hashable, Sendable {
    /// Recurring revenue per month, in thousandths.
    var recurringMonthly: Int64 = 0
    /// One-time value, in thousandths.
    var oneTime: Int64 = 0
  }

  /// The days in an average month.
  static let daysPerMonth = 30.4375

  /// By impact, then currency.
  private(set) var byImpact: [DiscrepancyCategory.Impact: [String: Amounts]] = [:]
  /// By category, then currency.
  private(set) var byCategory: [DiscrepancyCategory: [String: Amounts]] = [:]
  /// Differing keys with no price to count.
  private(set) var unpricedKeys = 0

  /// Every currency seen, sorted.
  var currencies: [String] {
    Set(byImpact.values.flatMap(\.keys)).sorted()
  }

  /// Counts one key of a comparison.
  mutating func add(_ key: KeyComparison) {
    guard key.category != .match else { return }
    guard let (currency, amounts) = Self.value(of: key) else {
      unpricedKeys += 1
      return
    }
    Self.merge(amounts, into: &byImpact[key.category.impact, default: [:]][currency])
    Self.merge(amounts, into: &byCategory[key.category, default: [:]][currency])
  }

  /// What one key is worth, whatever its category: its currency and amounts, or `nil` when the
  /// side that decides it carries no price.
  static func value(of key: KeyComparison) -> (currency: String, amounts: Amounts)? {
    guard let view = key.new ?? key.old, let price = view.price, let currency = view.currency
    else { return nil }
    var amounts = Amounts()
    if view.kind == .autoRenewable, let purchase = view.purchaseDate,
      let expiry = view.expiresDate, expiry > purchase
    {
      let days = Double(expiry.milliseconds(since: purchase)) / 86_400_000
      amounts.recurringMonthly = Int64((Double(price) * daysPerMonth / days).rounded())
    } else {
      amounts.oneTime = price
    }
    return (currency, amounts)
  }

  /// Adds `amounts` to a running total (absent meaning zero).
  static func merge(_ amounts: Amounts, into total: inout Amounts?) {
    var sum = total ?? Amounts()
    sum.recurringMonthly += amounts.recurringMonthly
    sum.oneTime += amounts.oneTime
    total = sum
  }

  /// Amounts per currency as short text, such as `USD 12.34/month + 9.99 one-time`, currencies
  /// sorted; a dash when there are none.
  static func summary(_ byCurrency: [String: Amounts]) -> String {
    let described = byCurrency.sorted { $0.key < $1.key }.map { currency, amounts in
      var parts: [String] = []
      if amounts.recurringMonthly != 0 { parts.append("\(text(amounts.recurringMonthly))/month") }
      if amounts.oneTime != 0 { parts.append("\(text(amounts.oneTime)) one-time") }
      return parts.isEmpty ? "" : "\(currency) " + parts.joined(separator: " + ")
    }.filter { !$0.isEmpty }.joined(separator: "; ")
    return described.isEmpty ? "—" : described
  }

  /// An amount in thousandths as decimal text with two places, such as `12.34`.
  static func text(_ thousandths: Int64) -> String {
    let cents = (thousandths + (thousandths >= 0 ? 5 : -5)) / 10
    let sign = cents < 0 ? "-" : ""
    let magnitude = cents.magnitude
    let fraction = magnitude % 100
    return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
