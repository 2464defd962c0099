import Entitlements
import LegacyReceipts

/// The aggregates every report file shows, computed once from the comparisons.
struct ReportStatistics: Sendable {
  /// One explanation and how many accounts share it.
  struct Explanation: Hashable, Sendable {
    var text: String
    var category: DiscrepancyCategory
    var accounts: Int
    /// The next action of the first account with it, as a template like ``text``.
    var action: String
  }

  private(set) var accounts = 0
  private(set) var byCategory: [DiscrepancyCategory: Int] = [:]
  private(set) var byImpact: [DiscrepancyCategory.Impact: Int] = [:]
  private(set) var byCause: [DifferenceCause: Int] = [:]
  /// Accounts per category and cause: what the switch itself changes (logic) apart from what
  /// an old snapshot explains (freshness).
  private(set) var byCategoryAndCause: [DiscrepancyCategory: [DifferenceCause: Int]] = [:]
  /// What the differing keys are worth, per currency.
  private(set) var money = MoneyAtStake()
  /// Every product's accounts, keys and key categories, most differing keys first.
  private(set) var products: [ProductBreakdown] = []
  /// Accounts whose comparison has no cause: account-level categories and matches.
  private(set) var withoutCause = 0
  /// Accounts that have a table category.
  private(set) var accountsWithTable = 0
  private(set) var byTableCategory: [DiscrepancyCategory: Int] = [:]
  private(set) var byTableImpact: [DiscrepancyCategory.Impact: Int] = [:]
  private(set) var bySuspectedFlaw: [LegacyLogicFlaw: Int] = [:]
  private(set) var keys = 0
  private(set) var transitions = StatusTransitions()
  private(set) var expiryDifferences = ExpiryDifferenceHistogram()
  /// The most frequent explanations of accounts that do not match, by template (dates and
  /// numbers replaced by placeholders), most frequent first.
  private(set) var topExplanations: [Explanation] = []
  /// The accounts of each "what to do first" line, with what they are worth.
  private(set) var actions = ActionTally()

  /// How many explanations ``topExplanations`` keeps.
  private let topExplanationCount: Int
  /// Accounts per explanation template while counting, with the first category seen.
  private var explanations:
    [String: (category: DiscrepancyCategory, accounts: Int, action: String)] = [:]
  /// Products while counting, by product id.
  private var productTotals: [String: ProductBreakdown] = [:]

  /// Aggregates of no accounts yet; ``add(_:)`` each, then ``finish()``.
  ///
  /// - Parameter topExplanationCount: how many explanations to keep.
  init(topExplanationCount: Int) {
    self.topExplanationCount = topExplanationCount
  }

  /// The aggregates of these accounts.
  init(comparisons: [AccountComparison], topExplanationCount: Int) {
    self.init(topExplanationCount: topExplanationCount)
    for comparison in comparisons { add(comparison) }
    finish()
  }

  /// Counts one account. Accounts must arrive in display order: the first category seen for an
  /// explanation is the one shown with it.
  mutating func add(_ comparison: AccountComparison) {
    accounts += 1
    byCategory[comparison.category, default: 0] += 1
    byImpact[comparison.category.impact, default: 0] += 1
    if let cause = comparison.cause {
      byCause[cause, default: 0] += 1
      byCategoryAndCause[comparison.category, default: [:]][cause, default: 0] += 1
    } else {
      withoutCause += 1
    }
    if let table = comparison.tableCategory {
      accountsWithTable += 1
      byTableCategory[table, default: 0] += 1
      byTableImpact[table.impact, default: 0] += 1
    }
    for flaw in Set(comparison.suspectedFlaws) {
      bySuspectedFlaw[flaw, default: 0] += 1
    }
    for key in comparison.keys {
      keys += 1
      money.add(key)
      transitions.add(old: key.old?.status, new: key.new?.status)
      if let old = key.old?.expiresDate, let new = key.new?.expiresDate {
        expiryDifferences.add(old: old, new: new)
      }
    }
    ProductBreakdown.add(comparison, to: &productTotals)
    actions.add(comparison)
    if comparison.category != .match {
      // Counted by template (dates and numbers as placeholders), so accounts that differ
      // only in their dates share one reason.
      let template = ExplanationTemplate.of(comparison.explanation)
      let entry =
        explanations[template]
        ?? (comparison.category, 0, ExplanationTemplate.of(NextAction.of(comparison)))
      explanations[template] = (entry.category, entry.accounts + 1, entry.action)
    }
  }

  /// Orders what was counted: products by differing keys, the most frequent explanations.
  mutating func finish() {
    products = ProductBreakdown.sorted(productTotals)
    topExplanations =
      explanations.map {
        Explanation(
          text: $0.key, category: $0.value.category, accounts: $0.value.accounts,
          action: $0.value.action)
      }
      .sorted { lhs, rhs in
        if lhs.accounts != rhs.accounts { return lhs.accounts > rhs.accounts }
        if lhs.category != rhs.category { return DisplayOrder.precedes(lhs.category, rhs.category) }
        return lhs.text.utf8.lexicographicallyPrecedes(rhs.text.utf8)
      }
      .prefix(max(0, topExplanationCount)).map { $0 }
  }

  /// Accounts in a category.
  func count(_ category: DiscrepancyCategory) -> Int { byCategory[category] ?? 0 }

  /// Accounts with an impact.
  func count(_ impact: DiscrepancyCategory.Impact) -> Int { byImpact[impact] ?? 0 }

  /// Accounts with a cause.
  func count(_ cause: DifferenceCause) -> Int { byCause[cause] ?? 0 }

  /// Accounts in a category with a cause.
  func count(_ category: DiscrepancyCategory, cause: DifferenceCause) -> Int {
    byCategoryAndCause[category]?[cause] ?? 0
  }

  /// Whether any account of the category has a cause (key-level categories do).
  func hasCauses(_ category: DiscrepancyCategory) -> Bool { byCategoryAndCause[category] != nil }

  /// Accounts whose table has a category.
  func tableCount(_ category: DiscrepancyCategory) -> Int { byTableCategory[category] ?? 0 }

  /// Accounts whose table category has an impact.
  func tableCount(_ impact: DiscrepancyCategory.Impact) -> Int { byTableImpact[impact] ?? 0 }

  /// Accounts naming a suspected legacy bug.
  func count(_ flaw: LegacyLogicFlaw) -> Int { bySuspectedFlaw[flaw] ?? 0 }
}
