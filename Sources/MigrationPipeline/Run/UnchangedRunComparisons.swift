import Entitlements
import MigrationReports
import MigrationStore

/// A run's comparisons in the order of the run's own classifications, computed again from the
/// store, each checked against what the run stored: the source of a report written in one pass
/// when the store has not changed since the run.
///
/// The first account that classifies differently now stops the pass with ``Changed``: the
/// order, which comes from the stored categories, would then be wrong. The report writer
/// commits no file when its source fails, so nothing written so far is kept.
struct UnchangedRunComparisons: ComparisonSource {
  /// An account classifies differently now than the run recorded.
  struct Changed: Error {
    /// The first such account met.
    let accountId: String
  }

  let comparisons: StoredComparisons
  let store: MigrationStore
  let runId: String

  func forEachInDisplayOrder(
    chunkSize: Int, pseudonymizer: Pseudonymizer?, _ body: ([AccountComparison]) throws -> Void
  ) throws {
    try comparisons.forEachInDisplayOrder(chunkSize: chunkSize, pseudonymizer: pseudonymizer) {
      chunk in
      for comparison in chunk {
        // One lookup on the primary key per account, by the id's bytes.
        let recorded = try store.comparison(runId: runId, accountId: comparison.accountId)
        guard recorded == MigrationRunner.row(comparison) else {
          throw Changed(accountId: comparison.accountId)
        }
      }
      try body(chunk)
    }
  }
}
