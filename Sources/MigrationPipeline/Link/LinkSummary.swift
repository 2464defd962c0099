import MigrationStore

/// What a `link` run planned and did.
public struct LinkSummary: Sendable {
  /// Whether writes were sent (`--apply`, `--undo`) or only planned (a dry run).
  public var isDryRun: Bool
  /// Apply or undo.
  public var kind: LinkRunRow.Kind
  /// The link run, when writes were journaled.
  public var runId: String?
  /// For an undo, the apply it undoes.
  public var undoesRunId: String?
  /// How the tokens were chosen.
  public var mapping: String
  /// How many accounts were audited (0 for an undo).
  public var accounts: Int
  /// Every write of the plan with where it stands; refused and failed ones carry the reason.
  public var writes: [LinkWriteRow]
  /// Writes sent and accepted by this process.
  public var applied: Int
  /// In-doubt writes (sent by a killed run, answer never recorded) that the App Store was found
  /// to hold already, so they were not sent again.
  public var confirmedWithoutResending: Int

  /// Creates a summary.
  public init(
    isDryRun: Bool, kind: LinkRunRow.Kind, runId: String?, undoesRunId: String?, mapping: String,
    accounts: Int, writes: [LinkWriteRow], applied: Int, confirmedWithoutResending: Int = 0
  ) {
    self.isDryRun = isDryRun
    self.kind = kind
    self.runId = runId
    self.undoesRunId = undoesRunId
    self.mapping = mapping
    self.accounts = accounts
    self.writes = writes
    self.applied = applied
    self.confirmedWithoutResending = confirmedWithoutResending
  }

  /// Writes still needed: planned and not yet accepted, refused ones excluded (0 when nothing
  /// is left).
  public var planned: Int {
    writes.count { $0.state == .planned || $0.state == .sending || $0.state == .failed }
  }

  /// Writes the App Store refused or that failed after retries.
  public var failed: [LinkWriteRow] { writes.filter { $0.state == .failed } }

  /// Writes refused locally.
  public var refused: [LinkWriteRow] { writes.filter { $0.state == .refused } }
}
