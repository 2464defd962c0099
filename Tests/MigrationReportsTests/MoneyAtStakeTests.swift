import Chronology
import Entitlements
import LegacyReceipts
import Testing

@testable import MigrationReports

/// Our own arithmetic against hand-computed sums (a check of our code only).
@Suite("Money at stake")
struct MoneyAtStakeTests {
  static let day: Int64 = 86_400_000

  static func key(
    _ category: DiscrepancyCategory, kind: ProductKind, price: Int64?, currency: String? = "USD",
    periodDays: Int64 = 365
  ) -> KeyComparison {
    var view = EntitlementView(key: .product("p"), status: .revoked)
    view.kind = kind
    view.price = price
    view.currency = currency
    view.purchaseDate = Timestamp(millisecondsSince1970: 0)
    view.expiresDate = Timestamp(millisecondsSince1970: periodDays * day)
    return KeyComparison(
      key: .product("p"), category: category, cause: nil, old: nil, new: view,
      oldAtCapture: nil, newAtCapture: nil, explanation: "")
  }

  @Test("a yearly price counts a twelfth a month, a one-time price once, per currency")
  func sums() {
    var money = MoneyAtStake()
    money.add(Self.key(.refundMissed, kind: .autoRenewable, price: 120_000, periodDays: 365))
    money.add(Self.key(.oneTimeRevoked, kind: .nonConsumable, price: 4_990))
    money.add(Self.key(.refundMissed, kind: .autoRenewable, price: 9_000, currency: "EUR"))
    money.add(Self.key(.refundMissed, kind: .autoRenewable, price: nil))
    money.add(Self.key(.match, kind: .autoRenewable, price: 99_000))
    let loses = money.byImpact[.losesAccess] ?? [:]
    // 120.000 × 30.4375 / 365 = 10.007 per month.
    #expect(MoneyAtStake.text(loses["USD"]?.recurringMonthly ?? 0) == "10.01")
    #expect(MoneyAtStake.text(loses["USD"]?.oneTime ?? 0) == "4.99")
    #expect(MoneyAtStake.text(loses["EUR"]?.recurringMonthly ?? 0) == "0.75")
    #expect(money.unpricedKeys == 1)
    #expect(money.currencies == ["EUR", "USD"])
    #expect(money.byCategory[.match] == nil)
  }

  /// Prices come from signed values and files: no price, period or total may trap.
  @Test("a price beyond a billion, a period of a millisecond, totals at the edge: no trap")
  func extremes() {
    var money = MoneyAtStake()
    money.add(Self.key(.refundMissed, kind: .nonConsumable, price: .max))
    money.add(Self.key(.refundMissed, kind: .nonConsumable, price: .min))
    var instant = Self.key(.refundMissed, kind: .autoRenewable, price: 1_000_000_000_000)
    instant.new?.expiresDate = Timestamp(millisecondsSince1970: 1)
    money.add(instant)
    #expect(money.unpricedKeys == 3)
    for _ in 0..<20 {
      money.add(Self.key(.refundMissed, kind: .nonConsumable, price: 1_000_000_000_000))
    }
    #expect(money.byImpact[.losesAccess]?["USD"]?.oneTime == 20_000_000_000_000)
    var total: MoneyAtStake.Amounts? = MoneyAtStake.Amounts()
    total?.oneTime = .max - 1
    var more = MoneyAtStake.Amounts()
    more.oneTime = 5
    MoneyAtStake.merge(more, into: &total)
    #expect(total?.oneTime == .max)
    #expect(MoneyAtStake.text(.max) == "9223372036854775.81")
    #expect(MoneyAtStake.text(.min) == "-9223372036854775.81")
  }

  @Test("amounts print with two decimals, rounded half away from zero")
  func text() {
    #expect(MoneyAtStake.text(0) == "0.00")
    #expect(MoneyAtStake.text(9_990) == "9.99")
    #expect(MoneyAtStake.text(1_005) == "1.01")
    #expect(MoneyAtStake.text(-2_500) == "-2.50")
  }
}
