import Entitlements

/// A run's aggregates — what its headline and `run.json` show — counted one account at a time,
/// so a caller streaming a million comparisons past can keep the counts and drop the accounts.
public struct RunStatistics: Sendable {
  var aggregates: ReportStatistics
  /// The `appAccountToken` audit's counts, from the accounts that carry one.
  var tokenAudit = TokenAuditStatistics()
  /// Stored responses captured after the comparison instant, which the old side set aside.
  public private(set) var responsesSetAside = 0
  /// Accounts with at least one such response.
  public private(set) var accountsWithResponsesSetAside = 0

  /// Counts of no accounts yet; ``add(_:)`` each, in any order.
  ///
  /// - Parameter topExplanationCount: how many of the most frequent explanations to keep.
  public init(topExplanationCount: Int = ReportOptions().topExplanationCount) {
    aggregates = ReportStatistics(topExplanationCount: topExplanationCount)
  }

  /// The counts of these accounts.
  public init(_ comparisons: [AccountComparison]) {
    self.init()
    for comparison in comparisons.sorted(by: DisplayOrder.precedes) { add(comparison) }
  }

  /// Counts one account.
  public mutating func add(_ comparison: AccountComparison) {
    aggregates.add(comparison)
    tokenAudit.add(comparison)
    let setAside = comparison.evidence.legacyRecords.count(where: \.isCapturedAfterInstant)
    if setAside > 0 {
      responsesSetAside += setAside
      accountsWithResponsesSetAside += 1
    }
  }

  /// The counts, ordered for display.
  var final: ReportStatistics {
    var copy = aggregates
    copy.finish()
    return copy
  }

  /// The token audit's counts, ordered.
  var tokens: TokenAuditStatistics {
    var copy = tokenAudit
    copy.finish()
    return copy
  }

  /// Accounts counted.
  public var accounts: Int { aggregates.accounts }

  /// Accounts in a category.
  public func count(_ category: DiscrepancyCategory) -> Int { aggregates.count(category) }

  /// Accounts by impact of their primary category.
  public var impactCounts: [DiscrepancyCategory.Impact: Int] {
    Dictionary(
      uniqueKeysWithValues: DiscrepancyCategory.Impact.allCases.map {
        ($0, aggregates.count($0))
      })
  }

  /// Accounts by impact of their team-table category, or `nil` when no account has one.
  public var tableImpactCounts: [DiscrepancyCategory.Impact: Int]? {
    guard aggregates.accountsWithTable > 0 else { return nil }
    var counts = Dictionary(
      uniqueKeysWithValues: DiscrepancyCategory.Impact.allCases.map { ($0, 0) })
    for category in DiscrepancyCategory.allCases {
      counts[category.impact, default: 0] += aggregates.tableCount(category)
    }
    return counts
  }
}
