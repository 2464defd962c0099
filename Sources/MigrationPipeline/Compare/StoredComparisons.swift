import Entitlements
import MigrationReports

/// A run's comparisons as a report reads them: computed again from the store a chunk at a
/// time, in the order the report asks, so a report of a million accounts never holds them all.
/// The outline (each account's id and category) is what the compare pass found.
public struct StoredComparisons: ComparisonSource {
  private let stage: CompareStage
  private let entries: [ComparisonOutline]
  /// Read once: every chunk the report asks for is compared against the same queue.
  private let pendingRefreshes: [Int64: String]

  /// Creates the source.
  ///
  /// - Parameters:
  ///   - stage: compares accounts from the store, with the run's instant, catalogue and table.
  ///   - outline: every account of the run with the category its compare pass found.
  /// - Throws: `SQLiteError` when the pending refreshes cannot be read.
  public init(stage: CompareStage, outline: [ComparisonOutline]) throws {
    self.stage = stage
    entries = outline
    pendingRefreshes = try stage.pendingRefreshes()
  }

  /// Every account's id and category.
  public func outline() -> [ComparisonOutline] { entries }

  /// The comparisons of these accounts, in this order.
  public func comparisons(of accountIds: [String]) throws -> [AccountComparison] {
    try stage.compare(accountIds: accountIds, pendingRefreshes: pendingRefreshes)
  }

  /// The comparisons of each chunk, the next chunk read from the store while `body` writes the
  /// current one.
  public func forEachChunk(
    _ chunks: [[String]], _ body: ([AccountComparison]) throws -> Void
  ) throws {
    try stage.forEachChunk(chunks, pendingRefreshes: pendingRefreshes, body)
  }
}
