import Entitlements

/// Where a report reads its accounts from without holding them all: an outline of every account
/// (its id and category, enough to order them), and the full comparisons of any accounts on
/// request, a chunk at a time.
///
/// A store-backed source recomputes comparisons from the store, so a report of a million
/// accounts holds only its outline and one chunk; ``ComparisonArray`` serves comparisons already
/// in memory.
public protocol ComparisonSource {
  /// Every account's id and category, in any order.
  func outline() throws -> [ComparisonOutline]

  /// The comparisons of these accounts, in this order.
  ///
  /// - Parameter accountIds: accounts of the outline.
  /// - Returns: one comparison per id, in the order given.
  func comparisons(of accountIds: [String]) throws -> [AccountComparison]
}

/// One account as a report orders it, without its comparison.
public struct ComparisonOutline: Hashable, Sendable {
  /// The account.
  public var accountId: String
  /// Its category.
  public var category: DiscrepancyCategory

  /// Creates an outline entry.
  public init(accountId: String, category: DiscrepancyCategory) {
    self.accountId = accountId
    self.category = category
  }
}
