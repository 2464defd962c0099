import Entitlements
import MigrationReports
import MigrationStore

/// A run's comparisons as a report reads them: ordered inside the store and computed again
/// from it a chunk at a time, so a report of a million accounts holds neither the comparisons
/// nor a list of the accounts.
///
/// The accounts are ordered in a TEMP table of the stage's connection: each account's display
/// key (its category's rank and the id the report shows) is written there a page at a time,
/// then read back sorted a chunk at a time.
public struct StoredComparisons: ComparisonSource {
  /// Where each account's category comes from.
  public enum Outline: Hashable, Sendable {
    /// What the run's compare pass stored.
    case storedRun(String)
    /// What ``StoredRun/recount(store:observer:)`` left on the same connection.
    case recounted
  }

  private let stage: CompareStage
  private let outline: Outline
  private let pageSize: Int
  private let observer: (any ProgressObserver)?
  /// Read once: every chunk the report asks for is compared against the same queue.
  private let pendingRefreshes: [Int64: String]

  /// Creates the source.
  ///
  /// - Parameters:
  ///   - stage: compares accounts from the store, with the run's instant, catalogue and table.
  ///   - outline: where every account's category comes from.
  ///   - pageSize: how many accounts are written into the display order at once.
  ///   - observer: where the progress of a pass goes (stage ``stageName``).
  /// - Throws: `SQLiteError` when the pending refreshes cannot be read.
  public init(
    stage: CompareStage, outline: Outline, pageSize: Int = StoredComparisons.defaultPageSize,
    observer: (any ProgressObserver)? = nil
  ) throws {
    self.stage = stage
    self.outline = outline
    self.pageSize = max(1, pageSize)
    self.observer = observer
    pendingRefreshes = try stage.pendingRefreshes()
  }

  /// The stage's name in progress reports.
  public static let stageName = "report"

  /// Accounts written into the display order at once, unless told otherwise.
  public static let defaultPageSize = 4_096

  /// Every comparison in display order, the next chunk read from the store while `body` writes
  /// the current one.
  public func forEachInDisplayOrder(
    chunkSize: Int, pseudonymizer: Pseudonymizer?, _ body: ([AccountComparison]) throws -> Void
  ) throws {
    let store = stage.store
    try store.resetDisplayOrder()
    var after: String?
    var total: Int64 = 0
    while true {
      let page = try classifications(after: after, store: store)
      guard let last = page.last else { break }
      try store.appendDisplayOrder(
        try page.map { entry in
          guard let category = DiscrepancyCategory(rawValue: entry.category) else {
            throw RunRecipe.Failure(
              description:
                "account \(entry.accountId) is stored with the category \"\(entry.category)\", "
                + "which this version does not know; write the report with the version that made "
                + "the run")
          }
          let key = ComparisonOutline(accountId: entry.accountId, category: category)
            .displayKey(pseudonymizer: pseudonymizer)
          return DisplayOrderRow(rank: key.rank, shownId: key.shownId, accountId: entry.accountId)
        })
      after = last.accountId
      total += Int64(page.count)
    }
    observer?.stageStarted(Self.stageName, unit: "accounts", total: total)
    var position: DisplayOrderRow?
    func write(_ chunk: [AccountComparison]) throws {
      try body(chunk)
      observer?.advanced(Self.stageName, by: Int64(chunk.count))
    }
    try stage.forEachChunk(
      next: {
        let rows = try store.displayOrder(after: position, limit: max(1, chunkSize))
        position = rows.last
        return rows.isEmpty ? nil : rows.map(\.accountId)
      }, pendingRefreshes: pendingRefreshes, write)
    observer?.stageFinished(Self.stageName)
  }

  private func classifications(after: String?, store: MigrationStore) throws
    -> [(accountId: String, category: String)]
  {
    switch outline {
    case .storedRun(let runId):
      try store.classifications(runId: runId, after: after, limit: pageSize)
    case .recounted:
      try store.recountedClassifications(after: after, limit: pageSize)
    }
  }
}
