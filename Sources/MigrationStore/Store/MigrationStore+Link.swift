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

  // MARK: Link journal

  /// The journal of `link` runs and their writes.
  public var linkJournal: LinkJournal { LinkJournal(database: database) }

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
      WHERE w.customer_id = ? AND w.state = 'confirmed' AND w.answered_ms >= c.updated_ms
      ORDER BY w.answered_ms, w.rowid
      """, binding: customerId
    ) { tokens[try $0.string(at: 0)] = try $0.string(at: 1) }
    return tokens
  }
}
