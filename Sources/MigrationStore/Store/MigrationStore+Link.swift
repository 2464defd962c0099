// MARK: - Account tokens and the link journal

extension MigrationStore {
  /// Records the token mapping a run audited with (from a file), replacing any rows of the run.
  ///
  /// - Parameters:
  ///   - tokens: each account's token; accounts are told apart by their bytes, as SQLite
  ///     compares them.
  ///   - runId: the run.
  /// - Throws: `SQLiteError`.
  public func storeRunAccountTokens(
    _ tokens: [(accountId: String, token: String)], runId: String
  ) throws {
    try writeTransaction {
      try database.run("DELETE FROM run_account_tokens WHERE run_id = ?", binding: runId)
      for (account, token) in tokens {
        try database.run(
          "INSERT INTO run_account_tokens (run_id, account_id, app_account_token) VALUES (?, ?, ?)",
          binding: runId, account, token)
      }
    }
  }

  /// The token mapping a run audited with, in the store's order of accounts; empty when it
  /// stored none. A list, not a dictionary: `String` keys would merge two accounts whose ids
  /// differ only in Unicode normalization.
  ///
  /// - Parameter runId: the run.
  /// - Throws: `SQLiteError`.
  public func runAccountTokens(runId: String) throws -> [(accountId: String, token: String)] {
    var tokens: [(accountId: String, token: String)] = []
    try database.forEachRow(
      "SELECT account_id, app_account_token FROM run_account_tokens WHERE run_id = ? ORDER BY account_id",
      binding: runId
    ) { tokens.append((try $0.string(at: 0), try $0.string(at: 1))) }
    return tokens
  }

  // MARK: Link runs

  /// Records a link run and its planned writes, all or nothing.
  ///
  /// - Parameters:
  ///   - run: the run.
  ///   - writes: its plan (rows already `refused` are journaled as such).
  /// - Throws: `SQLiteError`.
  public func beginLinkRun(_ run: LinkRunRow, writes: [LinkWriteRow]) throws {
    try writeTransaction {
      try database.run(
        "INSERT INTO link_runs (id, kind, undoes_run_id, mapping, started_ms) VALUES (?, ?, ?, ?, ?)",
        binding: run.id, run.kind.rawValue, run.undoesRunId, run.mapping, run.startedMilliseconds)
      for write in writes {
        try database.run(
          """
          INSERT INTO link_writes (run_id, original_transaction_id, account_id, customer_id, environment, is_subscription, old_token, new_token, state, answer, answered_ms)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """,
          binding: run.id, write.originalTransactionId, write.accountId, write.customerId,
          write.environment, write.isSubscription, write.oldToken, write.newToken,
          write.state.rawValue, write.answer, write.answeredMilliseconds)
      }
    }
  }

  /// Closes a link run: every write of its plan has an answer.
  ///
  /// - Throws: `SQLiteError`.
  public func finishLinkRun(_ id: String, finishedMilliseconds: Int64) throws {
    try database.run(
      "UPDATE link_runs SET finished_ms = ? WHERE id = ?", binding: finishedMilliseconds, id)
  }

  /// A link run by id.
  ///
  /// - Throws: `SQLiteError`.
  public func linkRun(_ id: String) throws -> LinkRunRow? {
    try database.firstRow(
      "SELECT \(Self.linkRunColumns) FROM link_runs WHERE id = ?", binding: id,
      decode: Self.linkRun)
  }

  /// The open link run of a kind (for an undo, of the apply it undoes), if a run was killed.
  ///
  /// - Parameters:
  ///   - kind: apply or undo.
  ///   - undoesRunId: for an undo, the apply.
  /// - Throws: `SQLiteError`.
  public func openLinkRun(kind: LinkRunRow.Kind, undoing undoesRunId: String? = nil) throws
    -> LinkRunRow?
  {
    try database.firstRow(
      """
      SELECT \(Self.linkRunColumns) FROM link_runs
      WHERE finished_ms IS NULL AND kind = ? AND undoes_run_id IS ?
      ORDER BY started_ms DESC LIMIT 1
      """, binding: kind.rawValue, undoesRunId, decode: Self.linkRun)
  }

  /// The undo runs of an apply, most recent first.
  ///
  /// - Throws: `SQLiteError`.
  public func undoRuns(of applyRunId: String) throws -> [LinkRunRow] {
    var runs: [LinkRunRow] = []
    try database.forEachRow(
      "SELECT \(Self.linkRunColumns) FROM link_runs WHERE undoes_run_id = ? ORDER BY started_ms DESC",
      binding: applyRunId
    ) { runs.append(try Self.linkRun($0)) }
    return runs
  }

  /// Every journaled write of a link run, in plan order.
  ///
  /// - Throws: `SQLiteError`.
  public func linkWrites(runId: String) throws -> [LinkWriteRow] {
    var writes: [LinkWriteRow] = []
    try database.forEachRow(
      """
      SELECT run_id, original_transaction_id, account_id, customer_id, environment, is_subscription, old_token, new_token, state, answer, attempted_ms, answered_ms
      FROM link_writes WHERE run_id = ? ORDER BY rowid
      """, binding: runId
    ) { row in
      writes.append(
        LinkWriteRow(
          runId: try row.string(at: 0), originalTransactionId: try row.string(at: 1),
          accountId: try row.string(at: 2), customerId: try row.optionalInt64(at: 3),
          environment: try row.string(at: 4), isSubscription: try row.bool(at: 5),
          oldToken: try row.optionalString(at: 6), newToken: try row.string(at: 7),
          state: LinkWriteRow.State(rawValue: try row.string(at: 8)) ?? .planned,
          answer: try row.optionalString(at: 9),
          attemptedMilliseconds: try row.optionalInt64(at: 10),
          answeredMilliseconds: try row.optionalInt64(at: 11)))
    }
    return writes
  }

  /// Marks a write as leaving now. Committed before the request is sent, so that after a crash
  /// the write is known to be in doubt rather than never sent.
  ///
  /// - Throws: `SQLiteError`.
  public func markLinkWriteSending(
    runId: String, originalTransactionId: String, attemptedMilliseconds: Int64
  ) throws {
    try database.run(
      "UPDATE link_writes SET state = 'sending', attempted_ms = ? WHERE run_id = ? AND original_transaction_id = ?",
      binding: attemptedMilliseconds, runId, originalTransactionId)
  }

  /// Records a write's answer.
  ///
  /// - Parameters:
  ///   - state: applied, failed or refused.
  ///   - answer: the App Store's answer, or the local reason.
  ///   - answeredMilliseconds: when.
  /// - Throws: `SQLiteError`.
  public func recordLinkWriteAnswer(
    runId: String, originalTransactionId: String, state: LinkWriteRow.State, answer: String,
    answeredMilliseconds: Int64
  ) throws {
    try database.run(
      "UPDATE link_writes SET state = ?, answer = ?, answered_ms = ? WHERE run_id = ? AND original_transaction_id = ?",
      binding: state.rawValue, answer, answeredMilliseconds, runId, originalTransactionId)
  }

  /// The tokens link runs set on a customer's purchases since the customer was last fetched,
  /// by original transaction id (the latest write of each wins): what the App Store carries
  /// now. Once a backfill or refresh stores the customer again, its signed data says so itself.
  ///
  /// - Parameter customerId: the customer.
  /// - Throws: `SQLiteError`.
  public func writtenTokens(customerId: Int64) throws -> [String: String] {
    var tokens: [String: String] = [:]
    try database.forEachRow(
      """
      SELECT w.original_transaction_id, w.new_token FROM link_writes w
      JOIN customers c ON c.id = w.customer_id
      WHERE w.customer_id = ? AND w.state = 'applied' AND w.answered_ms >= c.updated_ms
      ORDER BY w.answered_ms, w.rowid
      """, binding: customerId
    ) { tokens[try $0.string(at: 0)] = try $0.string(at: 1) }
    return tokens
  }

  private static let linkRunColumns =
    "id, kind, undoes_run_id, mapping, started_ms, finished_ms"

  private static func linkRun(_ row: SQLiteRow) throws -> LinkRunRow {
    LinkRunRow(
      id: try row.string(at: 0), kind: LinkRunRow.Kind(rawValue: try row.string(at: 1)) ?? .apply,
      undoesRunId: try row.optionalString(at: 2), mapping: try row.string(at: 3),
      startedMilliseconds: try row.int64(at: 4), finishedMilliseconds: try row.optionalInt64(at: 5))
  }
}
