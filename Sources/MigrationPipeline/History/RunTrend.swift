import Foundation
import MigrationReports
import MigrationStore

/// The trend an audit's report shows: its store's complete runs before it and the run itself,
/// each with a link to its report while that report's folder still exists.
public enum RunTrend {
  /// How many runs before this one the trend shows: a month of nightly audits.
  public static let earlierRuns = 30

  /// The trend of a run whose report is written into `<reportsDirectory>/<run id>/`.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - store: the store.
  ///   - reportsDirectory: the folder the run's report folder is created in.
  /// - Returns: the points, oldest first, this run last; empty when the run is not stored.
  /// - Throws: `SQLiteError`.
  public static func points(of runId: String, in store: MigrationStore, reportsDirectory: String)
    throws -> [RunTrendPoint]
  {
    let folder = MigrationRunner.absolutePath(
      (reportsDirectory as NSString).appendingPathComponent(runId))
    return try RunHistory.trend(of: runId, in: store, limit: earlierRuns).map { entry in
      guard entry.runId != runId, let directory = entry.reportDirectory,
        FileManager.default.fileExists(
          atPath: (directory as NSString).appendingPathComponent("report.html"))
      else { return RunTrendPoint(entry: entry) }
      return RunTrendPoint(
        entry: entry,
        reportLink: relativePath(
          from: folder, to: MigrationRunner.absolutePath(directory) + "/report.html"))
    }
  }

  /// `target` as a path relative to the folder `base`; both absolute and standardised. Relative,
  /// so that a reports folder moved or copied as a whole keeps its links.
  static func relativePath(from base: String, to target: String) -> String {
    let from = base.split(separator: "/")
    let to = target.split(separator: "/")
    var common = 0
    while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
    let up = Array(repeating: "..", count: from.count - common)
    return (up + to[common...].map(String.init)).joined(separator: "/")
  }
}
