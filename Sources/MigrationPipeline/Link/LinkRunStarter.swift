import Chronology
import Entitlements
import MigrationStore

/// Journals new `link` runs — an apply from its plan, an undo from the apply's journal — or
/// finds the open run a killed process left, which is resumed instead of planned again. A run
/// is resumed or undone only against the App Store it wrote to.
public struct LinkRunStarter {
  private let journal: LinkJournal
  private let storePath: String
  private let now: @Sendable () -> Timestamp

  /// Creates a starter.
  ///
  /// - Parameters:
  ///   - store: the store holding the journal.
  ///   - now: the clock that dates the journal.
  public init(store: MigrationStore, now: @escaping @Sendable () -> Timestamp) {
    journal = store.linkJournal
    storePath = store.path
    self.now = now
  }

  // MARK: - Apply

  /// The open apply run a killed process left, if any, checked against the App Store.
  ///
  /// - Parameter target: the App Store this process talks to, or `nil` for a dry run.
  /// - Returns: the open run, or `nil`.
  /// - Throws: ``LinkFailure`` when the open run wrote to another App Store; `SQLiteError`.
  public func openApply(target: LinkTarget?) throws -> LinkRunRow? {
    guard let open = try journal.openRun(kind: .apply) else { return nil }
    if let target { try Self.check(open, against: target) }
    return open
  }

  /// Journals a new apply run for a plan, or returns the open one a killed run left.
  ///
  /// - Parameters:
  ///   - plan: what to write (ignored when a run is open: its journal is the plan).
  ///   - mapping: how the tokens were chosen, for the journal.
  ///   - runId: the new run's id.
  ///   - target: the App Store it writes to.
  /// - Returns: the run to carry out, or `nil` when there is nothing to write.
  /// - Throws: ``LinkFailure`` when an open run wrote to another App Store; `SQLiteError`.
  public func startApply(plan: LinkPlan, mapping: String, runId: String, target: LinkTarget)
    throws -> LinkRunRow?
  {
    if let open = try openApply(target: target) { return open }
    guard !plan.sendable.isEmpty else { return nil }
    let started = now().millisecondsSince1970
    let run = LinkRunRow(
      id: runId, kind: .apply, undoesRunId: nil, mapping: mapping,
      appStore: target.description, appStoreIdentity: target.identity,
      startedMilliseconds: started)
    try journal.begin(run, writes: plan.writes.map { Self.row(of: $0, runId: runId, at: started) })
    return run
  }

  /// A plan's write as the journal holds it.
  ///
  /// - Parameters:
  ///   - write: the write.
  ///   - runId: the run, or `""` for a dry run's listing.
  ///   - at: when a skipped write was decided.
  /// - Returns: the row.
  public static func row(of write: LinkPlan.Write, runId: String, at: Int64?) -> LinkWriteRow {
    LinkWriteRow(
      runId: runId, originalTransactionId: write.purchase.originalTransactionId,
      accountId: write.accountId, customerId: write.customerId,
      environment: write.purchase.environment, isSubscription: write.purchase.isSubscription,
      productType: write.purchase.productType?.rawValue,
      latestTransactionId: write.purchase.latestTransactionId,
      oldToken: write.purchase.currentToken, newToken: write.newToken,
      state: write.skip == nil ? .planned : .skipped, reason: write.skip?.rawValue,
      answer: write.note, answeredMilliseconds: write.skip == nil ? nil : at)
  }

  // MARK: - Undo

  /// The writes that would undo an apply run: each of its writes still confirmed (not undone
  /// yet) gets its earlier token back; one whose purchase had none is skipped (Apple cannot
  /// remove a token).
  ///
  /// - Parameters:
  ///   - applyRunId: the apply run.
  ///   - runId: the undo run's id.
  /// - Returns: the planned writes.
  /// - Throws: ``LinkFailure`` when there is no such apply run; `SQLiteError`.
  public func undoPlan(of applyRunId: String, runId: String) throws -> [LinkWriteRow] {
    _ = try applyRun(applyRunId)
    let decided = now().millisecondsSince1970
    return try journal.writes(runId: applyRunId).filter { $0.state == .confirmed }.map { write in
      LinkWriteRow(
        runId: runId, originalTransactionId: write.originalTransactionId,
        accountId: write.accountId, customerId: write.customerId, environment: write.environment,
        isSubscription: write.isSubscription, productType: write.productType,
        latestTransactionId: write.latestTransactionId, oldToken: write.newToken,
        newToken: write.oldToken ?? "",
        state: write.oldToken == nil ? .skipped : .planned,
        reason: write.oldToken == nil ? LinkSkipReason.noPreviousToken.rawValue : nil,
        answer: write.oldToken == nil
          ? "the purchase had no token before \(applyRunId); Apple cannot remove one, so it "
            + "keeps \(write.newToken)" : nil,
        answeredMilliseconds: write.oldToken == nil ? decided : nil)
    }
  }

  /// An apply run by id.
  ///
  /// - Parameter id: the run id, as `link --apply` and `link --list` print it.
  /// - Returns: the run.
  /// - Throws: ``LinkFailure`` when the database has no apply run with this id; `SQLiteError`.
  public func applyRun(_ id: String) throws -> LinkRunRow {
    guard let run = try journal.run(id), run.kind == .apply else {
      throw LinkFailure(
        description:
          "the database \(storePath) has no link run \(id) that applied tokens; "
          + "receipt-migrate link --list shows its runs")
    }
    return run
  }

  /// The open undo of an apply a killed process left, if any, checked against the App Store.
  ///
  /// - Parameters:
  ///   - applyRunId: the apply run.
  ///   - target: the App Store this process talks to.
  /// - Returns: the open undo run, or `nil`.
  /// - Throws: ``LinkFailure`` when it wrote to another App Store; `SQLiteError`.
  public func openUndo(of applyRunId: String, target: LinkTarget) throws -> LinkRunRow? {
    guard let open = try journal.openRun(kind: .undo, undoing: applyRunId) else { return nil }
    try Self.check(open, against: target)
    return open
  }

  /// Journals a new undo run, or returns the open one a killed undo left. An apply undone
  /// before is undone again only for its writes the earlier undo could not restore.
  ///
  /// - Parameters:
  ///   - applyRunId: the apply run to undo.
  ///   - runId: the new run's id.
  ///   - target: the App Store it writes to.
  /// - Returns: the run, or `nil` when every write of the apply was restored already.
  /// - Throws: ``LinkFailure`` for an unknown apply, or one that wrote to another App Store;
  ///   `SQLiteError`.
  public func startUndo(of applyRunId: String, runId: String, target: LinkTarget) throws
    -> LinkRunRow?
  {
    if let open = try openUndo(of: applyRunId, target: target) { return open }
    try Self.check(try applyRun(applyRunId), against: target)
    let writes = try undoPlan(of: applyRunId, runId: runId)
    // Undone before: only a write the earlier undo could not restore makes a new run (one
    // whose purchase had no token is skipped again, and would only repeat the journal).
    let undoneBefore = try !journal.undoRuns(of: applyRunId).isEmpty
    guard !writes.isEmpty, !undoneBefore || writes.contains(where: { $0.state == .planned })
    else { return nil }
    let run = LinkRunRow(
      id: runId, kind: .undo, undoesRunId: applyRunId, mapping: "undo of \(applyRunId)",
      appStore: target.description, appStoreIdentity: target.identity,
      startedMilliseconds: now().millisecondsSince1970)
    try journal.begin(run, writes: writes)
    return run
  }

  /// Refuses a run journaled against another App Store.
  static func check(_ run: LinkRunRow, against target: LinkTarget) throws {
    guard let identity = run.appStoreIdentity, identity != target.identity else { return }
    throw LinkFailure(
      description:
        "link run \(run.id) wrote to \(run.appStore ?? identity), but this run talks to "
        + "\(target.description); a run is resumed and undone only against the App Store it "
        + "wrote to")
  }
}
