import Entitlements

/// Comparisons already in memory, as a ``ComparisonSource``.
public struct ComparisonArray: ComparisonSource {
  private let byAccount: [String: AccountComparison]

  /// Wraps comparisons; an account id that repeats keeps its last comparison.
  public init(_ comparisons: [AccountComparison]) {
    byAccount = Dictionary(comparisons.map { ($0.accountId, $0) }, uniquingKeysWith: { $1 })
  }

  /// Every account's id and category.
  public func outline() -> [ComparisonOutline] {
    byAccount.values.map { ComparisonOutline(accountId: $0.accountId, category: $0.category) }
  }

  /// The comparisons of these accounts, in this order.
  public func comparisons(of accountIds: [String]) -> [AccountComparison] {
    accountIds.compactMap { byAccount[$0] }
  }
}
