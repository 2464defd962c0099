import Entitlements
import MigrationReports

/// What a migration run produced.
public struct MigrationOutcome: Sendable {
  /// The run's summary, as the report shows it.
  public var summary: RunSummary
  /// Every account's comparison.
  public var comparisons: [AccountComparison]
  /// Where the report was written.
  public var reportDirectory: String
  /// The ingest stage's summary, or `nil` when the inputs were already ingested.
  public var ingest: IngestSummary?
  /// The backfill stage's summary.
  public var backfill: BackfillSummary
  /// Rows of the team table that were rejected (line and reason).
  public var rejectedTableRows: [(line: Int, reason: String)]

  /// Accounts whose ids could not be resolved.
  public var unresolvedAccounts: Int { comparisons.filter { $0.category == .unresolved }.count }

  /// The exit status the run asks for: 1 when the `--fail-on` threshold was crossed, else 4
  /// when inputs were quarantined or accounts left unresolved, else 0.
  public var exitStatus: Int32 {
    if summary.failOn?.isCrossed == true { return 1 }
    if unresolvedAccounts > 0 || (ingest?.quarantined ?? 0) > 0 || !rejectedTableRows.isEmpty {
      return 4
    }
    return 0
  }
}
