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

  /// Calls `body` with the comparisons of each chunk of accounts, in order. A source that can
  /// prepare the next chunk while `body` works on the current one does so; by default each
  /// chunk is asked for in turn with ``comparisons(of:)``.
  ///
  /// - Parameters:
  ///   - chunks: accounts of the outline, a chunk at a time.
  ///   - body: receives one comparison per id of each chunk, in the order given.
  func forEachChunk(_ chunks: [[String]], _ body: ([AccountComparison]) throws -> Void) throws
}

extension ComparisonSource {
  /// Asks for each chunk in turn.
  public func forEachChunk(_ chunks: [[String]], _ body: ([AccountComparison]) throws -> Void)
    throws
  {
    for chunk in chunks { try body(try comparisons(of: chunk)) }
  }
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
