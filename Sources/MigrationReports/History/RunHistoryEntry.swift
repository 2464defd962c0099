import Chronology
import Entitlements

/// One run of a store as a history shows it: `receipt-migrate runs`, and the trend of an audit's
/// report.
public struct RunHistoryEntry: Hashable, Sendable {
  /// How far a run got.
  public enum Status: String, Hashable, Sendable {
    /// Its report was committed and its command ended (headline printed, alerts handed over):
    /// it is a baseline for later runs.
    case complete
    /// Every account was compared and the command ended without a report (`compare`); `report`
    /// completes it.
    case compared
    /// It stopped before it ended — before comparing, or while writing its report or alerts (or
    /// it is still running); the next run lists its changes again.
    case interrupted
  }

  /// The run id.
  public var runId: String
  /// The command that made it, or `nil` when not known (runs recorded before version 11).
  public var command: String?
  /// When it started.
  public var startedAt: Timestamp
  /// Its comparison instant.
  public var asOf: Timestamp
  /// How far it got.
  public var status: Status
  /// Accounts compared (0 when interrupted).
  public var accounts: Int
  /// Accounts by impact of their primary category.
  public var impactCounts: [DiscrepancyCategory.Impact: Int]
  /// Accounts by impact of their team-table category, when a table was compared.
  public var tableImpactCounts: [DiscrepancyCategory.Impact: Int]?
  /// What changed since the run it was compared with, if any.
  public var since: RunChangeCounts?
  /// Lost notifications it listed.
  public var lostNotifications: Int
  /// The exit code the command ended with, or the one the run asked for when the command's own
  /// was not recorded; `nil` when unknown.
  public var exitCode: Int32?
  /// Where its report was committed, if it was.
  public var reportDirectory: String?

  /// Creates an entry.
  public init(
    runId: String, command: String?, startedAt: Timestamp, asOf: Timestamp, status: Status,
    accounts: Int, impactCounts: [DiscrepancyCategory.Impact: Int],
    tableImpactCounts: [DiscrepancyCategory.Impact: Int]?, since: RunChangeCounts?,
    lostNotifications: Int, exitCode: Int32?, reportDirectory: String?
  ) {
    self.runId = runId
    self.command = command
    self.startedAt = startedAt
    self.asOf = asOf
    self.status = status
    self.accounts = accounts
    self.impactCounts = impactCounts
    self.tableImpactCounts = tableImpactCounts
    self.since = since
    self.lostNotifications = lostNotifications
    self.exitCode = exitCode
    self.reportDirectory = reportDirectory
  }

  /// New findings since the compared run, both sides together.
  public var newFindings: Int {
    (since?.primary?[.newFinding] ?? 0) + (since?.table?[.newFinding] ?? 0)
  }

  /// Resolved findings since the compared run, both sides together.
  public var resolvedFindings: Int {
    (since?.primary?[.resolved] ?? 0) + (since?.table?[.resolved] ?? 0)
  }
}
