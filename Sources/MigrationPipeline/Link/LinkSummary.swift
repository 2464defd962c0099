import Chronology
import Entitlements
import MigrationStore

/// What a `link` run planned and did: the plan of a dry run, or the journal of an apply or an
/// undo with what this process did.
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
  /// The App Store written to (or, in a dry run, that `--apply` would write to); `nil` when
  /// none is configured.
  public var appStore: String?
  /// The App Store the store's data came from, if anything was backfilled.
  public var storeAppStore: String?
  /// The instant purchases were judged at (plans).
  public var asOf: Timestamp?
  /// Every write with where it stands; skipped and failed ones carry the reason.
  public var writes: [LinkWriteRow]
  /// How many purchases the audit found in each state (plans and applies).
  public var findings: [TokenFinding: Int]
  /// What this process did (empty for a dry run).
  public var outcome: LinkOutcome
  /// The least time the writes still to send take at Apple's rates.
  public var estimate: LinkEstimate?

  /// Creates a summary.
  public init(
    isDryRun: Bool, kind: LinkRunRow.Kind, runId: String?, undoesRunId: String?, mapping: String,
    accounts: Int, appStore: String?, storeAppStore: String?, asOf: Timestamp? = nil,
    writes: [LinkWriteRow], findings: [TokenFinding: Int] = [:], outcome: LinkOutcome = .init(),
    estimate: LinkEstimate? = nil
  ) {
    self.isDryRun = isDryRun
    self.kind = kind
    self.runId = runId
    self.undoesRunId = undoesRunId
    self.mapping = mapping
    self.accounts = accounts
    self.appStore = appStore
    self.storeAppStore = storeAppStore
    self.asOf = asOf
    self.writes = writes
    self.findings = findings
    self.outcome = outcome
    self.estimate = estimate
  }

  /// Writes still needed: planned, in doubt, or failed (0 when nothing is left).
  public var planned: Int {
    writes.count { $0.state.isPending || $0.state == .failed }
  }

  /// Writes Apple holds: confirmed (and, for an apply, undone since).
  public var confirmed: Int { writes.count { $0.state == .confirmed || $0.state == .undone } }

  /// Writes the App Store refused or that failed after retries.
  public var failed: [LinkWriteRow] { writes.filter { $0.state == .failed } }

  /// Writes left out, with their reasons.
  public var skipped: [LinkWriteRow] { writes.filter { $0.state == .skipped } }

  /// Skipped writes by reason.
  public var skippedByReason: [String: Int] {
    var counts: [String: Int] = [:]
    for write in skipped { counts[write.reason ?? "unknown", default: 0] += 1 }
    return counts
  }

  /// Writes to send (or sent) that replace a token, so an undo can put it back.
  public var undoable: Int {
    writes.count { $0.state != .skipped && $0.oldToken != nil }
  }

  /// Writes to send (or sent) that set a token on a purchase that had none: Apple cannot
  /// remove one, so no undo can put them back.
  public var notUndoable: Int {
    writes.count { $0.state != .skipped && $0.oldToken == nil }
  }
}
