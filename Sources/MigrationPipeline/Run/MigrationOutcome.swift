/// What a whole migration run (ingest → backfill → compare → report) produced.
public struct MigrationOutcome: Sendable {
  /// The ingest stage's summary, or `nil` when these inputs were already ingested.
  public var ingest: IngestSummary?
  /// The backfill stage's summary.
  public var backfill: BackfillSummary
  /// What the refresh did.
  public var refresh: RefreshSummary
  /// The recorded comparison run.
  public var run: RecordedRun
  /// Where the report was written.
  public var reportDirectory: String

  /// Creates an outcome.
  public init(
    ingest: IngestSummary?, backfill: BackfillSummary, refresh: RefreshSummary,
    run: RecordedRun, reportDirectory: String
  ) {
    self.ingest = ingest
    self.backfill = backfill
    self.refresh = refresh
    self.run = run
    self.reportDirectory = reportDirectory
  }

  /// The exit status the run asks for; see ``RecordedRun/exitStatus``.
  public var exitStatus: Int32 { run.exitStatus }
}
