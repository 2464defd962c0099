import Entitlements

/// Comparisons already in memory, as a ``ComparisonSource``.
public struct ComparisonArray: ComparisonSource {
  private let byAccount: [AccountKey: AccountComparison]

  /// Wraps comparisons; an account id that repeats (the same bytes) keeps its last comparison.
  public init(_ comparisons: [AccountComparison]) {
    byAccount = Dictionary(
      comparisons.map { (AccountKey($0.accountId), $0) }, uniquingKeysWith: { $1 })
  }

  /// Every comparison in display order, sorted in memory, a chunk at a time.
  public func forEachInDisplayOrder(
    chunkSize: Int, pseudonymizer: Pseudonymizer?, _ body: ([AccountComparison]) throws -> Void
  ) throws {
    let order = DisplayOrder.sorted(
      byAccount.values.map { ComparisonOutline(accountId: $0.accountId, category: $0.category) },
      pseudonymizer: pseudonymizer)
    for start in stride(from: 0, to: order.count, by: max(1, chunkSize)) {
      try body(
        order[start..<min(order.count, start + max(1, chunkSize))].compactMap {
          byAccount[AccountKey($0)]
        })
    }
  }
}
