// MARK: - Order ids

extension MigrationStore {
  /// The order ids Look Up Order ID must still answer: named by a record, and without an
  /// outcome or with a failed one. One row per account and record naming the order.
  ///
  /// - Returns: the rows, by order id.
  /// - Throws: `SQLiteError`.
  public func orderSeedsNeedingLookup() throws -> [OrderSeedRow] {
    var rows: [OrderSeedRow] = []
    try database.forEachRow(
      """
      SELECT s.account_id, s.order_id, s.record_id, s.environment
      FROM order_seeds s LEFT JOIN order_outcomes o ON o.order_id = s.order_id
      WHERE o.order_id IS NULL OR o.outcome = 'failed'
      ORDER BY s.order_id, s.account_id, s.record_id
      """
    ) { row in
      rows.append(
        OrderSeedRow(
          accountId: try row.string(at: 0), orderId: try row.string(at: 1),
          recordId: try row.int64(at: 2), environment: try row.optionalString(at: 3)))
    }
    return rows
  }

  /// Records what Look Up Order ID answered for an order and, for a valid order, makes each of
  /// its transactions a seed of every account whose records name the order (source
  /// `order_id`) — in one transaction, so an interruption leaves both or neither.
  ///
  /// - Parameters:
  ///   - outcome: the answer.
  ///   - namedBy: the accounts and records naming the order.
  ///   - now: the current instant (Unix ms).
  /// - Throws: `SQLiteError`.
  public func storeOrderOutcome(_ outcome: OrderOutcomeRow, namedBy: [OrderSeedRow], now: Int64)
    throws
  {
    try writeTransaction {
      try database.run(
        """
        INSERT OR REPLACE INTO order_outcomes (order_id, outcome, environment, transaction_ids,
          last_error, updated_ms)
        VALUES (?, ?, ?, ?, ?, ?)
        """,
        binding: outcome.orderId, outcome.outcome, outcome.environment,
        outcome.transactionIds.joined(separator: ","), outcome.lastError, now)
      guard outcome.outcome == "valid" else { return }
      for seed in namedBy {
        for id in outcome.transactionIds {
          try database.run(
            """
            INSERT OR IGNORE INTO seeds (account_id, original_transaction_id, record_id, source, environment)
            VALUES (?, ?, ?, 'order_id', ?)
            """,
            binding: seed.accountId, id, seed.recordId, outcome.environment)
        }
      }
    }
  }

  /// Every order id's outcome so far.
  ///
  /// - Returns: the outcomes, by order id.
  /// - Throws: `SQLiteError`.
  public func orderOutcomes() throws -> [OrderOutcomeRow] {
    var outcomes: [OrderOutcomeRow] = []
    try database.forEachRow(
      """
      SELECT order_id, outcome, environment, transaction_ids, last_error FROM order_outcomes
      ORDER BY order_id
      """
    ) { row in
      outcomes.append(
        OrderOutcomeRow(
          orderId: try row.string(at: 0), outcome: try row.string(at: 1),
          environment: try row.optionalString(at: 2),
          transactionIds: try row.string(at: 3).split(separator: ",").map(String.init),
          lastError: try row.optionalString(at: 4)))
    }
    return outcomes
  }

  /// The order ids an account's records name, each with its outcome if it has one.
  ///
  /// - Parameter accountId: the account.
  /// - Returns: the order ids, sorted, with their outcomes.
  /// - Throws: `SQLiteError`.
  public func orders(ofAccount accountId: String) throws -> [(
    orderId: String, outcome: OrderOutcomeRow?
  )] {
    var orders: [(String, OrderOutcomeRow?)] = []
    try database.forEachRow(
      """
      SELECT DISTINCT s.order_id, o.outcome, o.environment, o.transaction_ids, o.last_error
      FROM order_seeds s LEFT JOIN order_outcomes o ON o.order_id = s.order_id
      WHERE s.account_id = ? ORDER BY s.order_id
      """, binding: accountId
    ) { row in
      let orderId = try row.string(at: 0)
      let outcome = try row.optionalString(at: 1).map { outcome in
        OrderOutcomeRow(
          orderId: orderId, outcome: outcome, environment: try row.optionalString(at: 2),
          transactionIds: (try row.optionalString(at: 3) ?? "").split(separator: ",").map(
            String.init),
          lastError: try row.optionalString(at: 4))
      }
      orders.append((orderId, outcome))
    }
    return orders
  }

  /// The fields set aside from one legacy record, in reading order.
  ///
  /// - Parameter recordId: the record.
  /// - Returns: the fields.
  /// - Throws: `SQLiteError`.
  public func setAsideFields(ofRecord recordId: Int64) throws -> [SetAsideFieldRow] {
    var fields: [SetAsideFieldRow] = []
    try database.forEachRow(
      """
      SELECT path, reason, detail, excerpt, byte_offset FROM set_aside_fields
      WHERE record_id = ? ORDER BY position
      """, binding: recordId
    ) { row in
      fields.append(
        SetAsideFieldRow(
          path: try row.string(at: 0), reason: try row.string(at: 1),
          detail: try row.string(at: 2), excerpt: try row.string(at: 3),
          byteOffset: try row.optionalInt(at: 4)))
    }
    return fields
  }
}
