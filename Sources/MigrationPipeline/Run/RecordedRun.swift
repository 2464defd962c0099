import Entitlements
import MigrationReports

/// A comparison run recorded in the store: its summary and every account's comparison.
public struct RecordedRun: Sendable {
  /// The run's summary, as reports show it and as the store keeps it.
  public var summary: RunSummary
  /// Every account's comparison, by account id.
  public var comparisons: [AccountComparison]
  /// Rows of the team table that were rejected (line and reason); empty when none was read.
  public var rejectedTableRows: [(line: Int, reason: String)]
  /// The accounts whose category changed since the run compared with.
  public var changes: [AccountChange]
  /// The notifications Apple never delivered that this run reports.
  public var lostNotifications: [LostNotification]
  /// Rows of the token mapping file that could not be used (file, line and reason).
  public var quarantinedTokenRows: [AccountTokenMappingFile.QuarantinedRow]

  /// Creates a recorded run.
  ///
  /// - Parameters:
  ///   - summary: the summary.
  ///   - comparisons: the comparisons.
  ///   - rejectedTableRows: the team table's rejected rows.
  public init(
    summary: RunSummary, comparisons: [AccountComparison],
    rejectedTableRows: [(line: Int, reason: String)] = [], changes: [AccountChange] = [],
    lostNotifications: [LostNotification] = [],
    quarantinedTokenRows: [AccountTokenMappingFile.QuarantinedRow] = []
  ) {
    self.summary = summary
    self.comparisons = comparisons
    self.rejectedTableRows = rejectedTableRows
    self.changes = changes
    self.lostNotifications = lostNotifications
    self.quarantinedTokenRows = quarantinedTokenRows
  }

  /// Accounts whose ids could not be resolved.
  public var unresolvedAccounts: Int { comparisons.count { $0.category == .unresolved } }

  /// Accounts whose App Store data could not be brought up to date (the refresh's budget was
  /// spent, or it failed): the next run continues with them.
  public var staleAccounts: Int { comparisons.count { $0.category == .staleAppStoreData } }

  /// The exit status the run asks for: 1 when the `--fail-on` threshold was crossed, else 4
  /// when inputs were quarantined, team-table or token-mapping rows rejected or accounts left
  /// unresolved, else 0.
  public var exitStatus: Int32 {
    if summary.failOn?.isCrossed == true { return 1 }
    if unresolvedAccounts > 0 || staleAccounts > 0 || summary.inputs.recordsQuarantined > 0
      || !rejectedTableRows.isEmpty || !quarantinedTokenRows.isEmpty
    {
      return 4
    }
    return 0
  }
}
