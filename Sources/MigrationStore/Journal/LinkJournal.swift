/// The journal of `link`: each run (an apply, or the undo of one), and each write of its plan
/// with the token before and after and what became of it.
///
/// A write goes `planned` → `sent` (committed before its request leaves) → `confirmed` or
/// `failed`; one never sent is `skipped` with a reason; a confirmed write an undo restored is
/// `undone`. A run is open until every write has an answer; an open run is resumed, never
/// planned again. The journal is a view over the store's connection: use it where the store is
/// used.
public struct LinkJournal {
  let database: SQLiteDatabase

  private static let runColumns =
    "id, kind, undoes_run_id, mapping, app_store, app_store_identity, started_ms, finished_ms"

  private static let writeColumns = """
    run_id, original_transaction_id, account_id, customer_id, environment, is_subscription, \
    product_type, latest_transaction_id, old_token, new_token, state, reason, answer, \
    undone_by, attempted_ms, answered_ms
    """

  // MARK: - Runs

  /// Records a run and its writes, all or nothing.
  ///
  /// - Parameters:
  ///   - run: the run.
  ///   - writes: its plan, skipped writes included.
  /// - Throws: `SQLiteError`.
  public func begin(_ run: LinkRunRow, writes: [LinkWriteRow]) throws {
    try database.transaction(.immediate) {
      try database.run(
        """
        INSERT INTO link_runs (id, kind, undoes_run_id, mapping, app_store, app_store_identity,
          started_ms) VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
        binding: run.id, run.kind.rawValue, run.undoesRunId, run.mapping, run.appStore,
        run.appStoreIdentity, run.startedMilliseconds)
      for write in writes {
        try database.run(
          """
          INSERT INTO link_writes (\(Self.writeColumns))
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          binding: run.id, write.originalTransactionId, write.accountId, write.customerId,
          write.environment, write.isSubscription, write.productType, write.latestTransactionId,
          write.oldToken, write.newToken, write.state.rawValue, write.reason, write.answer,
          write.undoneBy, write.attemptedMilliseconds, write.answeredMilliseconds)
      }
    }
  }

  /// Closes a run: every write of its plan has an answer.
  ///
  /// - Parameters:
  ///   - id: the run.
  ///   - finishedMilliseconds: when.
  /// - Throws: `SQLiteError`.
  public func finish(_ id: String, finishedMilliseconds: Int64) throws {
    try database.run(
      "UPDATE link_runs SET finished_ms = ? WHERE id = ?", binding: finishedMilliseconds, id)
  }

  /// A run by id.
  ///
  /// - Parameter id: the run id.
  /// - Returns: the run, or `nil`.
  /// - Throws: `SQLiteError`.
  public func run(_ id: String) throws -> LinkRunRow? {
    try database.firstRow(
      "SELECT \(Self.runColumns) FROM link_runs WHERE id = ?", binding: id, decode: Self.run)
  }

  /// The open run of a kind (for an undo, of the apply it undoes), if a run was killed.
  ///
  /// - Parameters:
  ///   - kind: apply or undo.
  ///   - undoesRunId: for an undo, the apply.
  /// - Returns: the most recent open run, or `nil`.
  /// - Throws: `SQLiteError`.
  public func openRun(kind: LinkRunRow.Kind, undoing undoesRunId: String? = nil) throws
    -> LinkRunRow?
  {
    try database.firstRow(
      """
      SELECT \(Self.runColumns) FROM link_runs
      WHERE finished_ms IS NULL AND kind = ? AND undoes_run_id IS ?
      ORDER BY started_ms DESC LIMIT 1
      """, binding: kind.rawValue, undoesRunId, decode: Self.run)
  }

  /// The undo runs of an apply, most recent first.
  ///
  /// - Parameter applyRunId: the apply.
  /// - Returns: its undo runs.
  /// - Throws: `SQLiteError`.
  public func undoRuns(of applyRunId: String) throws -> [LinkRunRow] {
    var runs: [LinkRunRow] = []
    try database.forEachRow(
      "SELECT \(Self.runColumns) FROM link_runs WHERE undoes_run_id = ? ORDER BY started_ms DESC",
      binding: applyRunId
    ) { runs.append(try Self.run($0)) }
    return runs
  }

  /// Every run, most recent first, with its writes counted by state and its skipped writes by
  /// reason.
  ///
  /// - Returns: the tallies.
  /// - Throws: `SQLiteError`.
  public func tallies() throws -> [LinkRunTally] {
    var tallies: [LinkRunTally] = []
    var positions: [String: Int] = [:]
    try database.forEachRow(
      "SELECT \(Self.runColumns) FROM link_runs ORDER BY started_ms DESC, id DESC"
    ) { row in
      let run = try Self.run(row)
      positions[run.id] = tallies.count
      tallies.append(LinkRunTally(run: run, states: [:], skipped: [:]))
    }
    try database.forEachRow(
      "SELECT run_id, state, reason, count(*) FROM link_writes GROUP BY run_id, state, reason"
    ) { row in
      guard let position = positions[try row.string(at: 0)],
        let state = LinkWriteRow.State(rawValue: try row.string(at: 1))
      else { return }
      let count = Int(try row.int64(at: 3))
      tallies[position].states[state, default: 0] += count
      if state == .skipped {
        tallies[position].skipped[try row.optionalString(at: 2) ?? "unknown", default: 0] += count
      }
    }
    return tallies
  }

  // MARK: - Writes

  /// Every write of a run, in plan order.
  ///
  /// - Parameter runId: the run.
  /// - Returns: the writes.
  /// - Throws: `SQLiteError`.
  public func writes(runId: String) throws -> [LinkWriteRow] {
    var writes: [LinkWriteRow] = []
    try database.forEachRow(
      "SELECT \(Self.writeColumns) FROM link_writes WHERE run_id = ? ORDER BY rowid",
      binding: runId
    ) { row in
      writes.append(
        LinkWriteRow(
          runId: try row.string(at: 0), originalTransactionId: try row.string(at: 1),
          accountId: try row.string(at: 2), customerId: try row.optionalInt64(at: 3),
          environment: try row.string(at: 4), isSubscription: try row.bool(at: 5),
          productType: try row.optionalString(at: 6),
          latestTransactionId: try row.optionalString(at: 7),
          oldToken: try row.optionalString(at: 8), newToken: try row.string(at: 9),
          state: LinkWriteRow.State(rawValue: try row.string(at: 10)) ?? .planned,
          reason: try row.optionalString(at: 11), answer: try row.optionalString(at: 12),
          undoneBy: try row.optionalString(at: 13),
          attemptedMilliseconds: try row.optionalInt64(at: 14),
          answeredMilliseconds: try row.optionalInt64(at: 15)))
    }
    return writes
  }

  /// Marks a write as leaving now: committed before the request is sent, so that after a crash
  /// the write is known to be in doubt rather than never sent.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - originalTransactionId: the purchase.
  ///   - attemptedMilliseconds: when.
  /// - Throws: `SQLiteError`.
  public func markSent(runId: String, originalTransactionId: String, attemptedMilliseconds: Int64)
    throws
  {
    try database.run(
      """
      UPDATE link_writes SET state = 'sent', attempted_ms = ?
      WHERE run_id = ? AND original_transaction_id = ?
      """, binding: attemptedMilliseconds, runId, originalTransactionId)
  }

  /// Records what became of a write: confirmed, failed or skipped.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - originalTransactionId: the purchase.
  ///   - state: the outcome.
  ///   - reason: for a skipped write, why.
  ///   - answer: the App Store's answer, or the local explanation.
  ///   - answeredMilliseconds: when.
  /// - Throws: `SQLiteError`.
  public func record(
    runId: String, originalTransactionId: String, state: LinkWriteRow.State, reason: String?,
    answer: String, answeredMilliseconds: Int64
  ) throws {
    try database.run(
      """
      UPDATE link_writes SET state = ?, reason = ?, answer = ?, answered_ms = ?
      WHERE run_id = ? AND original_transaction_id = ?
      """,
      binding: state.rawValue, reason, answer, answeredMilliseconds, runId, originalTransactionId)
  }

  /// Records that an undo restored a purchase: the undo's write is confirmed and the apply's
  /// write it restored becomes `undone`, together.
  ///
  /// - Parameters:
  ///   - undoRunId: the undo run.
  ///   - applyRunId: the apply it undoes.
  ///   - originalTransactionId: the purchase.
  ///   - answer: the App Store's answer.
  ///   - answeredMilliseconds: when.
  /// - Throws: `SQLiteError`.
  public func recordRestored(
    undoRunId: String, applyRunId: String, originalTransactionId: String, answer: String,
    answeredMilliseconds: Int64
  ) throws {
    try database.transaction(.immediate) {
      try record(
        runId: undoRunId, originalTransactionId: originalTransactionId, state: .confirmed,
        reason: nil, answer: answer, answeredMilliseconds: answeredMilliseconds)
      try database.run(
        """
        UPDATE link_writes SET state = 'undone', undone_by = ?
        WHERE run_id = ? AND original_transaction_id = ? AND state = 'confirmed'
        """, binding: undoRunId, applyRunId, originalTransactionId)
    }
  }

  private static func run(_ row: SQLiteRow) throws -> LinkRunRow {
    LinkRunRow(
      id: try row.string(at: 0), kind: LinkRunRow.Kind(rawValue: try row.string(at: 1)) ?? .apply,
      undoesRunId: try row.optionalString(at: 2), mapping: try row.string(at: 3),
      appStore: try row.optionalString(at: 4), appStoreIdentity: try row.optionalString(at: 5),
      startedMilliseconds: try row.int64(at: 6), finishedMilliseconds: try row.optionalInt64(at: 7))
  }
}
