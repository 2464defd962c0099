import Foundation
import MigrationReports
import MigrationStore

/// Keeps a nightly job's report folders from filling the disk (`--keep-reports N`): the folders
/// of the store's runs beyond the newest N are removed, but never the folder `latest` points at
/// and never a run another run is compared with (the newest complete run of each set of inputs:
/// the next night's "since" baseline). Folders of runs that did not complete are left alone.
///
/// Only folders the store's own ledger records as its runs' reports, inside the reports folder
/// in use, and holding a `run.json` of that very run are touched: a reports folder shared with
/// other stores, or files a person put there, are left alone. The runs stay in the store (and
/// stay baselines); `receipt-migrate report --run ID` writes a removed report again.
public enum ReportRetention {
  /// Removes old report folders.
  ///
  /// - Parameters:
  ///   - store: the store.
  ///   - reportsDirectory: the folder holding the run folders.
  ///   - keep: how many of the newest report folders to keep (1 or more).
  /// - Returns: the folders removed, newest first.
  /// - Throws: `SQLiteError`; a folder that cannot be removed is skipped, not thrown.
  public static func prune(store: MigrationStore, reportsDirectory: String, keep: Int) throws
    -> [String]
  {
    let reports = MigrationRunner.absolutePath(reportsDirectory)
    let latestTarget = try? FileManager.default.destinationOfSymbolicLink(
      atPath: reports + "/" + ReportWriter.latestLinkName)
    var kept = 0
    var baselineKeys: Set<String> = []
    var removed: [String] = []
    for run in try store.runLedger.runs() where run.isComplete {
      let isBaseline = baselineKeys.insert(run.recipeKey ?? "").inserted
      guard let directory = run.reportDirectory else { continue }
      let inReports = URL(fileURLWithPath: directory).deletingLastPathComponent().path == reports
      guard inReports else { continue }
      if kept < keep || isBaseline || latestTarget == run.id {
        kept += 1
        continue
      }
      guard holdsReport(of: run.id, at: directory) else { continue }
      do {
        try FileManager.default.removeItem(atPath: directory)
        try store.runLedger.forgetReportDirectory(run.id)
        removed.append(directory)
      } catch {
        continue
      }
    }
    return removed
  }

  /// Whether `directory` holds the report of `runId` (its `run.json` names the run).
  static func holdsReport(of runId: String, at directory: String) -> Bool {
    guard let data = FileManager.default.contents(atPath: directory + "/run.json"),
      let text = String(data: data, encoding: .utf8)
    else { return false }
    return text.contains("\"run_id\": \"\(runId)\"")
  }
}
