import Chronology
import MigrationReports
import MigrationStore

/// The store's runs as a history: what `receipt-migrate runs` lists, what an audit's report
/// charts as its trend, and what report retention keeps.
public enum RunHistory {
  /// The store's runs, newest first.
  ///
  /// - Parameters:
  ///   - store: the store.
  ///   - limit: at most this many, or `nil` for all.
  /// - Returns: the entries.
  /// - Throws: `SQLiteError`.
  public static func entries(in store: MigrationStore, limit: Int? = nil) throws
    -> [RunHistoryEntry]
  {
    try store.runLedger.runs(limit: limit).map(entry)
  }

  /// The complete runs before a run, oldest first, followed by the run itself: an audit
  /// report's trend.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - store: the store.
  ///   - limit: how many earlier runs at most.
  /// - Returns: the entries, oldest first; empty when the run is not stored.
  /// - Throws: `SQLiteError`.
  public static func trend(of runId: String, in store: MigrationStore, limit: Int = 30) throws
    -> [RunHistoryEntry]
  {
    guard let run = try store.runLedger.run(runId) else { return [] }
    let earlier = try store.runLedger.completeRuns(before: run, limit: limit)
    return try (earlier.reversed() + [run]).map(entry)
  }

  /// One run as an entry.
  ///
  /// - Parameter row: the run.
  /// - Returns: the entry.
  public static func entry(_ row: RunRow) throws -> RunHistoryEntry {
    let summary = try row.summary.map(RunSummaryCodec.decode)
    let status: RunHistoryEntry.Status
    if row.isComplete {
      status = .complete
    } else if row.finishedMilliseconds != nil, row.endedMilliseconds != nil {
      status = .compared
    } else {
      status = .interrupted
    }
    return RunHistoryEntry(
      runId: row.id, command: row.command ?? summary?.command,
      startedAt: Timestamp(millisecondsSince1970: row.startedMilliseconds),
      asOf: Timestamp(millisecondsSince1970: row.asOfMilliseconds), status: status,
      accounts: summary?.inputs.accounts ?? 0, impactCounts: summary?.impactCounts ?? [:],
      tableImpactCounts: summary?.tableImpactCounts, since: summary?.since,
      lostNotifications: summary?.lostNotifications ?? 0,
      exitCode: row.exitCode.map { Int32(truncatingIfNeeded: $0) } ?? summary?.exitCode,
      reportDirectory: row.reportDirectory)
  }
}
