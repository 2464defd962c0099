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
    guard let view = key.new ?? key.old, let price = view.price, let currency = view.currency,
      price.magnitude <= largestCountedPrice.magnitude
    else { return nil }
    var amounts = Amounts()
    if view.kind == .autoRenewable, let purchase = view.purchaseDate,
      let expiry = view.expiresDate, expiry > purchase
    {
      let days = Double(expiry.milliseconds(since: purchase)) / 86_400_000
      let monthly = (Double(price) * daysPerMonth / days).rounded()
      // A period of a few milliseconds makes any price enormous per month: beyond what a total
      // can hold, the key is not counted rather than converted with a trap.
      guard abs(monthly) <= Double(largestCountedPrice) else { return nil }
      amounts.recurringMonthly = Int64(monthly)
    } else {
      amounts.oneTime = price
    }
    return (currency, amounts)
  }

  /// The largest price (or monthly amount) counted, in thousandths: a billion in any currency,
  /// far above every App Store price. Prices come from signed data and files; a total of up to
  /// nine million keys at this bound still fits in 64 bits, and a larger value is counted with
  /// the unpriced keys instead of overflowing.
  static let largestCountedPrice: Int64 = 1_000_000_000_000

  /// Adds `amounts` to a running total (absent meaning zero), saturating rather than trapping.
  static func merge(_ amounts: Amounts, into total: inout Amounts?) {
    var sum = total ?? Amounts()
    sum.recurringMonthly = saturatingSum(sum.recurringMonthly, amounts.recurringMonthly)
    sum.oneTime = saturatingSum(sum.oneTime, amounts.oneTime)
    total = sum
  }

  private static func saturatingSum(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard overflow else { return sum }
    return b < 0 ? .min : .max
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
    // On the magnitude, which holds every Int64's: `thousandths + 5` overflows at the top.
    let magnitude = (thousandths.magnitude / 10) + (thousandths.magnitude % 10 >= 5 ? 1 : 0)
    let sign = thousandths < 0 && magnitude > 0 ? "-" : ""
    let fraction = magnitude % 100
    return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
