import Entitlements

/// Where a report reads its accounts from without holding them all: every account's comparison
/// in display order, a chunk at a time.
///
/// A store-backed source orders the accounts inside the store and computes their comparisons
/// again from it, so a report of a million accounts holds one chunk, never a list of every
/// account; ``ComparisonArray`` serves comparisons already in memory.
public protocol ComparisonSource {
  /// Calls `body` with every account's comparison, each once, in display order: by category
  /// (``DisplayOrder/rank(of:)``), then by the id the report shows (the account id, or its
  /// pseudonym when `pseudonymizer` is given) compared byte by byte, then by account id.
  ///
  /// - Parameters:
  ///   - chunkSize: the most comparisons `body` receives at once.
  ///   - pseudonymizer: the redaction whose pseudonyms order the accounts, if any.
  ///   - body: receives each chunk, in order.
  /// - Throws: what reading the accounts throws, or what `body` throws.
  func forEachInDisplayOrder(
    chunkSize: Int, pseudonymizer: Pseudonymizer?, _ body: ([AccountComparison]) throws -> Void
  ) throws
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

  /// The entry's key in display order, under `pseudonymizer`.
  public func displayKey(pseudonymizer: Pseudonymizer?) -> (rank: Int, shownId: String) {
    (DisplayOrder.rank(of: category), pseudonymizer?.pseudonym(forAccount: accountId) ?? accountId)
  }
}
