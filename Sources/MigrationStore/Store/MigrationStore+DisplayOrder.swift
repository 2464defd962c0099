// MARK: - Ordering a report's accounts without holding them

/// A report lists every account sorted by category and shown id. A million accounts sorted in
/// memory cost more than 100 MB; sorted by SQLite in a TEMP table they cost its page cache. TEMP
/// tables belong to this connection alone, live in a temporary file SQLite removes, and can be
/// written on a connection opened read-only (`report` and `explain` open the store so).
extension MigrationStore {
  /// Each account a run classified and its category, a page at a time in account order.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - after: the last account of the previous page, or `nil` for the first page.
  ///   - limit: the most accounts to return.
  /// - Returns: the page; empty after the last account.
  /// - Throws: `SQLiteError`.
  public func classifications(runId: String, after: String?, limit: Int) throws
    -> [(accountId: String, category: String)]
  {
    try classificationPage(
      from: "comparisons WHERE run_id = ?1", binding: runId, after: after, limit: limit)
  }

  /// Empties this connection's scratch list of recounted classifications (creating it the
  /// first time): where a pass that classifies every account again keeps each category until
  /// the report orders them.
  ///
  /// - Throws: `SQLiteError`.
  public func resetRecountedClassifications() throws {
    try database.execute(
      """
      CREATE TEMP TABLE IF NOT EXISTS recounted_classifications (
        account_id TEXT PRIMARY KEY, category TEXT NOT NULL) WITHOUT ROWID;
      DELETE FROM temp.recounted_classifications;
      """)
  }

  /// Adds accounts to the scratch list of recounted classifications, in one transaction.
  ///
  /// - Parameter classifications: account ids and categories not in the list yet.
  /// - Throws: `SQLiteError`, also when an account is in the list already.
  public func appendRecountedClassifications(
    _ classifications: [(accountId: String, category: String)]
  ) throws {
    try scratchTransaction {
      for entry in classifications {
        try database.run(
          "INSERT INTO temp.recounted_classifications (account_id, category) VALUES (?, ?)",
          binding: entry.accountId, entry.category)
      }
    }
  }

  /// The scratch list of recounted classifications, a page at a time in account order.
  ///
  /// - Parameters:
  ///   - after: the last account of the previous page, or `nil` for the first page.
  ///   - limit: the most accounts to return.
  /// - Returns: the page; empty after the last account.
  /// - Throws: `SQLiteError`.
  public func recountedClassifications(after: String?, limit: Int) throws
    -> [(accountId: String, category: String)]
  {
    try classificationPage(
      from: "temp.recounted_classifications WHERE ?1 IS NULL", binding: nil, after: after,
      limit: limit)
  }

  /// Empties this connection's scratch display order (creating it the first time).
  ///
  /// - Throws: `SQLiteError`.
  public func resetDisplayOrder() throws {
    try database.execute(
      """
      CREATE TEMP TABLE IF NOT EXISTS display_order (
        rank INTEGER NOT NULL, shown_id TEXT NOT NULL, account_id TEXT NOT NULL,
        PRIMARY KEY (rank, shown_id, account_id)) WITHOUT ROWID;
      DELETE FROM temp.display_order;
      """)
  }

  /// Adds accounts to the scratch display order, in one transaction; they may come in any order.
  ///
  /// - Parameter rows: accounts not in the display order yet.
  /// - Throws: `SQLiteError`.
  public func appendDisplayOrder(_ rows: [DisplayOrderRow]) throws {
    try scratchTransaction {
      for row in rows {
        try database.run(
          "INSERT INTO temp.display_order (rank, shown_id, account_id) VALUES (?, ?, ?)",
          binding: row.rank, row.shownId, row.accountId)
      }
    }
  }

  /// The scratch display order, a page at a time, sorted.
  ///
  /// - Parameters:
  ///   - after: the last row of the previous page, or `nil` for the first page.
  ///   - limit: the most rows to return.
  /// - Returns: the page; empty after the last row.
  /// - Throws: `SQLiteError`.
  public func displayOrder(after: DisplayOrderRow?, limit: Int) throws -> [DisplayOrderRow] {
    var page: [DisplayOrderRow] = []
    let decode = { (row: SQLiteRow) in
      page.append(
        DisplayOrderRow(
          rank: try row.int(at: 0), shownId: try row.string(at: 1),
          accountId: try row.string(at: 2)))
    }
    let columns = "SELECT rank, shown_id, account_id FROM temp.display_order"
    let order = "ORDER BY rank, shown_id, account_id LIMIT ?"
    guard let after else {
      try database.forEachRow("\(columns) \(order)", binding: limit, body: decode)
      return page
    }
    // A row value compared with the key's columns continues the walk of the primary key.
    try database.forEachRow(
      "\(columns) WHERE (rank, shown_id, account_id) > (?, ?, ?) \(order)",
      binding: after.rank, after.shownId, after.accountId, limit, body: decode)
    return page
  }

  /// A page of account ids and categories from `source` (a table and a condition on `?1`, which
  /// `value` fills), in account order, after `after`.
  private func classificationPage(
    from source: String, binding value: String?, after: String?, limit: Int
  ) throws -> [(accountId: String, category: String)] {
    var page: [(accountId: String, category: String)] = []
    let decode = { (row: SQLiteRow) in page.append((try row.string(at: 0), try row.string(at: 1))) }
    if let after {
      try database.forEachRow(
        "SELECT account_id, category FROM \(source) AND account_id > ?2 ORDER BY account_id LIMIT ?3",
        binding: value, after, limit, body: decode)
    } else {
      try database.forEachRow(
        "SELECT account_id, category FROM \(source) ORDER BY account_id LIMIT ?2",
        binding: value, limit, body: decode)
    }
    return page
  }

  /// Runs `body` in one transaction that writes only TEMP tables: deferred, so a connection
  /// opened read-only can run it, and it never waits for the store's write lock.
  private func scratchTransaction(_ body: () throws -> Void) throws {
    try database.transaction(.deferred, body)
  }
}
