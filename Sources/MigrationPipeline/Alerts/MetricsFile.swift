import Entitlements
import Foundation
import MigrationReports

/// The run's figures as a Prometheus text-format file (`--metrics-file`), for node_exporter's
/// textfile collector: a nightly job that stops running, or runs and alerts, shows on the
/// dashboards and alert rules the team already has.
///
/// Every metric is a gauge describing the latest run, except the two timestamps, which carry
/// the last run and the last successful run over from earlier runs (from the store's ledger),
/// so `time() - receipt_migrate_last_success_timestamp_seconds > 2 * 86400` alerts on a job
/// that silently stopped. The file is written beside its final name and renamed into place, so
/// the collector never reads half of one.
public struct MetricsFile: Sendable {
  /// The run.
  public var summary: RunSummary
  /// Its aggregates.
  public var statistics: RunStatistics
  /// Accounts in `stale_app_store_data`.
  public var staleAccounts: Int
  /// The exit code the command ends with.
  public var exitCode: Int32
  /// When the last run with exit code 0 finished (this one, if it succeeds), if any did.
  public var lastSuccess: Date?

  /// Creates the metrics of a run.
  public init(
    summary: RunSummary, statistics: RunStatistics, staleAccounts: Int, exitCode: Int32,
    lastSuccess: Date?
  ) {
    self.summary = summary
    self.statistics = statistics
    self.staleAccounts = staleAccounts
    self.exitCode = exitCode
    self.lastSuccess = lastSuccess
  }

  /// The file's text.
  public var text: String {
    var out = ""
    func metric(
      _ name: String, _ help: String, _ samples: [(labels: [(String, String)], value: String)]
    ) {
      out += "# HELP receipt_migrate_\(name) \(help)\n# TYPE receipt_migrate_\(name) gauge\n"
      for sample in samples {
        let labels = sample.labels.map { "\($0.0)=\"\(Self.escaped($0.1))\"" }
        out +=
          "receipt_migrate_\(name)" + (labels.isEmpty ? "" : "{\(labels.joined(separator: ","))}")
          + " \(sample.value)\n"
      }
    }
    func int(_ value: Int) -> String { String(value) }
    let command = summary.command ?? "run"
    metric(
      "run_info", "The latest run: its id and command (value 1).",
      [([("run_id", summary.runId), ("command", command)], "1")])
    metric(
      "accounts", "Accounts compared by the latest run.", [([], int(summary.inputs.accounts))])
    metric(
      "accounts_by_impact", "Accounts by the impact of their primary category.",
      DiscrepancyCategory.Impact.allCases.map {
        ([("impact", $0.rawValue)], int(statistics.impactCounts[$0] ?? 0))
      })
    metric(
      "accounts_by_category", "Accounts by primary category.",
      DiscrepancyCategory.allCases.map {
        ([("category", $0.rawValue)], int(statistics.count($0)))
      })
    if let table = statistics.tableImpactCounts, summary.comparedTeamTable {
      metric(
        "table_accounts_by_impact",
        "Accounts by the impact of their team-table category (your table against the App Store).",
        DiscrepancyCategory.Impact.allCases.map { ([("impact", $0.rawValue)], int(table[$0] ?? 0)) }
      )
    }
    var newFindings: [(labels: [(String, String)], value: String)] = []
    var resolved: [(labels: [(String, String)], value: String)] = []
    if let since = summary.since {
      for (side, counts) in [("primary", since.primary), ("table", since.table)] {
        guard let counts else { continue }
        newFindings.append(([("side", side)], int(counts[.newFinding])))
        resolved.append(([("side", side)], int(counts[.resolved])))
      }
    }
    metric("new_findings", "Accounts with a new finding since the run compared with.", newFindings)
    metric(
      "resolved_findings", "Accounts whose finding resolved since the run compared with.", resolved)
    metric(
      "lost_notifications", "Notifications Apple never delivered that the latest run lists.",
      [([], int(summary.lostNotifications))])
    metric(
      "stale_accounts", "Accounts in stale_app_store_data (their App Store data is not current).",
      [([], int(staleAccounts))])
    if let refresh = summary.refresh {
      metric(
        "customers_due", "Customers still due for a refresh after the latest run.",
        [([], int(refresh.stillDue))])
      metric(
        "refresh_requests", "Requests the latest run's refresh sent.", [([], int(refresh.requests))]
      )
    }
    metric(
      "requests", "Requests the latest run sent, by App Store Server API endpoint.",
      summary.requests.map { ([("endpoint", $0.endpoint)], int($0.requests)) })
    metric(
      "run_duration_seconds", "How long the latest run took.",
      [([], Self.seconds(summary.durationMilliseconds))])
    metric("exit_code", "The exit code of the latest run.", [([], String(exitCode))])
    metric(
      "last_run_timestamp_seconds", "When the latest run finished (Unix time).",
      [([], Self.seconds(summary.finishedAt.millisecondsSince1970))])
    if let lastSuccess {
      metric(
        "last_success_timestamp_seconds", "When the last run with exit code 0 finished.",
        [([], String(Int64(lastSuccess.timeIntervalSince1970)))])
    }
    return out
  }

  /// Writes the file atomically (mode 0644: the collector runs as another user; the file holds
  /// counts only).
  ///
  /// - Parameter path: the file.
  /// - Throws: `CocoaError` when it cannot be written.
  public func write(to path: String) throws {
    let temporary = path + ".tmp"
    try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
    _ = chmod(temporary, 0o644)
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: reason])
    }
  }

  private static func seconds(_ milliseconds: Int64) -> String {
    let whole = milliseconds / 1000
    let fraction = abs(milliseconds % 1000)
    return "\(whole)." + String(repeating: "0", count: 3 - String(fraction).count)
      + String(fraction)
  }

  /// A label value as the text format wants it: backslash, quote and line feed escaped.
  private static func escaped(_ value: String) -> String {
    value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
  }
}
