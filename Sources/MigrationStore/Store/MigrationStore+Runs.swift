// MARK: - Runs and comparisons

extension MigrationStore {
  /// An account's categories in a run.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - accountId: the account.
  /// - Returns: its primary and team-table categories, or `nil` when the run did not classify
  ///   it.
  /// - Throws: `SQLiteError`.
  public func comparisonCategories(runId: String, accountId: String) throws -> (
    category: String, tableCategory: String?
  )? {
    try database.firstRow(
      "SELECT category, table_category FROM comparisons WHERE run_id = ? AND account_id = ?",
      binding: runId, accountId
    ) { row in (try row.string(at: 0), try row.optionalString(at: 1)) }
  }

  /// Calls `body` with every account of a run, by account id, beside its categories in an
  /// earlier run: one pass over the two runs' stored classifications, holding one row at a time.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - earlierRunId: the run it is compared with.
  ///   - body: receives each account.
  /// - Throws: `SQLiteError`, or what `body` throws.
  public func forEachCategoryPair(
    runId: String, earlierRunId: String, _ body: (CategoryPairRow) throws -> Void
  ) throws {
    try database.forEachRow(
      """
      SELECT c.account_id, c.category, c.table_category, e.category, e.table_category
      FROM comparisons c LEFT JOIN comparisons e ON e.run_id = ? AND e.account_id = c.account_id
      WHERE c.run_id = ? ORDER BY c.account_id
      """, binding: earlierRunId, runId
    ) { row in
      try body(
        CategoryPairRow(
          accountId: try row.string(at: 0), category: try row.string(at: 1),
          tableCategory: try row.optionalString(at: 2),
          earlierCategory: try row.optionalString(at: 3),
          earlierTableCategory: try row.optionalString(at: 4)))
    }
  }

  /// Stores one endpoint's request counters of a run.
  ///
  /// - Parameters:
  ///   - counters: the counters (JSON).
  ///   - endpoint: the endpoint.
  ///   - runId: the run.
  /// - Throws: `SQLiteError`.
  public func storeRequestCounters(_ counters: String, endpoint: String, runId: String) throws {
    try database.run(
      "INSERT OR REPLACE INTO request_counters (run_id, endpoint, counters) VALUES (?, ?, ?)",
      binding: runId, endpoint, counters)
  }

  /// A run's request counters by endpoint (JSON each).
  ///
  /// - Parameter runId: the run.
  /// - Returns: counters by endpoint.
  /// - Throws: `SQLiteError`.
  public func requestCounters(runId: String) throws -> [String: String] {
    var counters: [String: String] = [:]
    try database.forEachRow(
      "SELECT endpoint, counters FROM request_counters WHERE run_id = ?", binding: runId
    ) { row in
      counters[try row.string(at: 0)] = try row.string(at: 1)
    }
    return counters
  }

  /// Stores the team table a run compared.
  ///
  /// - Parameters:
  ///   - rows: the table's rows.
  ///   - runId: the run.
  /// - Throws: `SQLiteError`.
  public func storeCurrentEntitlements(_ rows: [CurrentEntitlementRow], runId: String) throws {
    try writeTransaction {
      try database.run("DELETE FROM run_current_entitlements WHERE run_id = ?", binding: runId)
      for row in rows {
        try database.run(
          "INSERT INTO run_current_entitlements (run_id, account_id, product_id, status, expires_ms) VALUES (?, ?, ?, ?, ?)",
          binding: runId, row.accountId, row.productId, row.status, row.expiresMilliseconds)
      }
    }
  }

  /// The team table rows a run compared for one account, in file order: what a comparison
  /// reads a chunk of accounts at a time instead of holding the whole table.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - accountId: the account.
  /// - Returns: its rows; empty when the table has none for it.
  /// - Throws: `SQLiteError`.
  public func currentEntitlements(runId: String, accountId: String) throws
    -> [CurrentEntitlementRow]
  {
    var rows: [CurrentEntitlementRow] = []
    try database.forEachRow(
      """
      SELECT account_id, product_id, status, expires_ms FROM run_current_entitlements
      WHERE run_id = ? AND account_id = ? ORDER BY rowid
      """,
      binding: runId, accountId
    ) { row in
      rows.append(
        CurrentEntitlementRow(
          accountId: try row.string(at: 0), productId: try row.string(at: 1),
          status: try row.string(at: 2), expiresMilliseconds: try row.optionalInt64(at: 3)))
    }
    return rows
  }

  /// Adds rows to a run's team table, in one transaction; ``storeCurrentEntitlements(_:runId:)``
  /// replaces them.
  ///
  /// - Parameters:
  ///   - rows: the rows, in file order.
  ///   - runId: the run.
  /// - Throws: `SQLiteError`.
  public func appendCurrentEntitlements(_ rows: [CurrentEntitlementRow], runId: String) throws {
    try writeTransaction {
      // One statement for the block: finding it by its text again for every row cost about a
      // fifth of storing the row.
      let insert = try database.cachedStatement(
        "INSERT INTO run_current_entitlements (run_id, account_id, product_id, status, expires_ms) VALUES (?, ?, ?, ?, ?)"
      )
      for row in rows {
        try insert.run(
          binding: runId, row.accountId, row.productId, row.status, row.expiresMilliseconds)
      }
    }
  }

  /// Forgets a run's classifications, before they are stored again chunk by chunk with
  /// ``appendComparisons(_:runId:)``.
  ///
  /// - Parameter runId: the run.
  /// - Throws: `SQLiteError`.
  public func clearComparisons(runId: String) throws {
    try writeTransaction {
      try database.run("DELETE FROM comparisons WHERE run_id = ?", binding: runId)
    }
  }

  /// Adds classifications of accounts not stored for the run yet, in one transaction.
  ///
  /// - Parameters:
  ///   - rows: one per account.
  ///   - runId: the run.
  /// - Throws: `SQLiteError`, also when an account is stored for the run already.
  public func appendComparisons(_ rows: [ComparisonRow], runId: String) throws {
    try writeTransaction { try insertComparisons(rows, runId: runId) }
  }

  private func insertComparisons(_ rows: [ComparisonRow], runId: String) throws {
    let insert = try database.cachedStatement(
      """
      INSERT INTO comparisons (run_id, account_id, category, table_category, cause, explanation) VALUES (?, ?, ?, ?, ?, ?)
      """)
    for row in rows {
      try insert.run(
        binding: runId, row.accountId, row.category, row.tableCategory, row.cause, row.explanation
      )
    }
  }

  /// A run's classifications of the accounts whose ids fall in a range, by account id: what a
  /// pass over the accounts in chunks compares each chunk with.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - first: the first account id of the range.
  ///   - last: the last account id of the range, in the store's order (bytes, which is not
  ///     Swift's order of `String`s: a `ClosedRange` of a chunk's first and last id could trap).
  /// - Returns: one row per account in the range that the run classified.
  /// - Throws: `SQLiteError`.
  public func comparisons(runId: String, from first: String, through last: String) throws
    -> [ComparisonRow]
  {
    var rows: [ComparisonRow] = []
    try database.forEachRow(
      """
      SELECT account_id, category, table_category, cause, explanation FROM comparisons
      WHERE run_id = ? AND account_id >= ? AND account_id <= ? ORDER BY account_id
      """,
      binding: runId, first, last
    ) { rows.append(try Self.comparisonRow($0)) }
    return rows
  }

  /// A run's classification of one account.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - accountId: the account, matched by its bytes.
  /// - Returns: the row, or `nil` when the run did not classify the account.
  /// - Throws: `SQLiteError`.
  public func comparison(runId: String, accountId: String) throws -> ComparisonRow? {
    try database.firstRow(
      """
      SELECT account_id, category, table_category, cause, explanation FROM comparisons
      WHERE run_id = ? AND account_id = ?
      """,
      binding: runId, accountId, decode: Self.comparisonRow)
  }

  /// Calls `body` with every account a run classified, in the store's order of account ids
  /// (their bytes), one row at a time.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - body: receives each row.
  /// - Throws: `SQLiteError`, or what `body` throws.
  public func forEachComparison(runId: String, _ body: (ComparisonRow) throws -> Void) throws {
    try database.forEachRow(
      """
      SELECT account_id, category, table_category, cause, explanation FROM comparisons
      WHERE run_id = ? ORDER BY account_id
      """,
      binding: runId
    ) { try body(try Self.comparisonRow($0)) }
  }

  /// How many accounts a run classified.
  ///
  /// - Parameter runId: the run.
  /// - Returns: the count.
  /// - Throws: `SQLiteError`.
  public func classifiedAccountCount(runId: String) throws -> Int {
    try count("SELECT COUNT(*) FROM comparisons WHERE run_id = ?", binding: runId)
  }

  /// A `comparisons` row selected as account_id, category, table_category, cause, explanation.
  private static func comparisonRow(_ row: SQLiteRow) throws -> ComparisonRow {
    ComparisonRow(
      accountId: try row.string(at: 0), category: try row.string(at: 1),
      tableCategory: try row.optionalString(at: 2),
      cause: try row.optionalString(at: 3), explanation: try row.string(at: 4))
  }

  /// Accounts a run classified that the store no longer holds.
  ///
  /// - Parameter runId: the run.
  /// - Returns: their ids, sorted.
  /// - Throws: `SQLiteError`.
  public func classifiedAccountsNoLongerStored(runId: String) throws -> [String] {
    var ids: [String] = []
    try database.forEachRow(
      """
      SELECT account_id FROM comparisons WHERE run_id = ?
      AND account_id NOT IN (SELECT account_id FROM accounts) ORDER BY account_id
      """,
      binding: runId
    ) { ids.append(try $0.string(at: 0)) }
    return ids
  }
}
