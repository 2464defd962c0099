// MARK: - Legacy-side reads

extension MigrationStore {
  /// How many legacy records the store accepted whole, accepted as partial (some fields set
  /// aside) and quarantined: the counts a run's summary states, without ``legacyTotals()``'s
  /// other counts, each of which reads every record (about a second for 100,000 accounts, paid
  /// at the end of every `compare`).
  ///
  /// - Returns: the counts.
  /// - Throws: `SQLiteError`.
  public func legacyRecordCounts() throws -> (accepted: Int, partial: Int, quarantined: Int) {
    let records = try count("SELECT COUNT(*) FROM legacy_records")
    let partial = try count("SELECT COUNT(*) FROM legacy_records WHERE set_aside_count > 0")
    return (records - partial, partial, try count("SELECT COUNT(*) FROM quarantine"))
  }

  /// Counts what the store holds on the legacy side.
  ///
  /// - Returns: the totals.
  /// - Throws: `SQLiteError`.
  public func legacyTotals() throws -> LegacyStoreTotals {
    var totals = LegacyStoreTotals()
    totals.accounts = try accountCount()
    totals.records = try count("SELECT COUNT(*) FROM legacy_records")
    totals.partialRecords = try count(
      "SELECT COUNT(*) FROM legacy_records WHERE set_aside_count > 0")
    try database.forEachRow("SELECT reason, COUNT(*) FROM set_aside_fields GROUP BY reason") {
      row in
      totals.setAsideByReason[try row.string(at: 0)] = try row.int(at: 1)
    }
    totals.distinctOriginalTransactionIds = try count(
      "SELECT COUNT(DISTINCT original_transaction_id) FROM seeds")
    totals.accountsWithoutIds = try count(
      "SELECT COUNT(*) FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM seeds s WHERE s.account_id = a.account_id)"
    )
    // NOT IN over the seeds' record ids (never NULL), not a correlated NOT EXISTS: seeds has no index on
    // record_id, so the correlated form scanned every seed once per raw receipt (7.9 billion rows
    // at 460,000 accounts: minutes at the end of every ingest); NOT IN builds one index of the
    // record ids and probes it.
    totals.rawReceiptsPending = try count(
      """
      SELECT COUNT(*) FROM legacy_records r
      WHERE r.kind = 'raw_receipt' AND r.id NOT IN (SELECT record_id FROM seeds)
      """)
    try database.forEachRow(
      "SELECT COALESCE(environment, 'unknown'), COUNT(*) FROM legacy_records GROUP BY 1"
    ) { row in
      totals.recordsByEnvironment[try row.string(at: 0)] = try row.int(at: 1)
    }
    try database.forEachRow(
      "SELECT status, COUNT(*) FROM legacy_records WHERE kind = 'response' GROUP BY status"
    ) { row in
      totals.responsesByStatus[try row.int64(at: 0)] = try row.int(at: 1)
    }
    try database.forEachRow("SELECT reason, COUNT(*) FROM quarantine GROUP BY reason") { row in
      totals.quarantinedByReason[try row.string(at: 0)] = try row.int(at: 1)
    }
    try database.forEachRow(
      """
      WITH latest AS (
        SELECT id, ROW_NUMBER() OVER (
          PARTITION BY account_id ORDER BY captured_ms DESC, version DESC) AS rank
        FROM legacy_records WHERE kind = 'response' AND status IN (0, 21006))
      SELECT e.status, COUNT(*) FROM old_entitlements e JOIN latest l ON l.id = e.record_id
      WHERE l.rank = 1 AND e.basis = 'capture' GROUP BY e.status
      """
    ) { row in
      totals.oldEntitlementsByStatus[try row.string(at: 0)] = try row.int(at: 1)
    }
    return totals
  }

  /// The number a `SELECT COUNT(*) …` statement answers.
  ///
  /// - Parameters:
  ///   - sql: the statement.
  ///   - values: one value per parameter, in order.
  func count<each Value: SQLiteBindable>(_ sql: String, binding values: repeat each Value)
    throws -> Int
  {
    try database.firstRow(sql, binding: repeat each values, decode: { try $0.int(at: 0) }) ?? 0
  }
}

extension MigrationStore {
  /// Old-logic verdicts at an instant, by status label, for each account's latest usable
  /// response.
  ///
  /// - Parameter asOfMilliseconds: the evaluation instant.
  /// - Returns: counts by status label.
  /// - Throws: `SQLiteError`.
  public func latestOldEntitlementsByStatus(asOfMilliseconds: Int64) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    try database.forEachRow(
      """
      WITH latest AS (
        SELECT id, ROW_NUMBER() OVER (
          PARTITION BY account_id ORDER BY captured_ms DESC, version DESC) AS rank
        FROM legacy_records WHERE kind = 'response' AND status IN (0, 21006))
      SELECT e.status, COUNT(*) FROM old_entitlements e JOIN latest l ON l.id = e.record_id
      WHERE l.rank = 1 AND e.as_of_ms = ? GROUP BY e.status
      """, binding: asOfMilliseconds
    ) { row in
      counts[try row.string(at: 0)] = try row.int(at: 1)
    }
    return counts
  }
}
