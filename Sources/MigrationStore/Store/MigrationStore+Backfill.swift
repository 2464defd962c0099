// MARK: - Backfill reads and writes

extension MigrationStore {
  /// Every seed id with its account, record and environment hint, in a stable order.
  ///
  /// - Returns: the links.
  /// - Throws: `SQLiteError`.
  public func seedLinks() throws -> [SeedLink] {
    var links: [SeedLink] = []
    try database.forEachRow(
      """
      SELECT s.account_id, s.original_transaction_id, s.record_id, COALESCE(s.environment, r.environment)
      FROM seeds s JOIN legacy_records r ON r.id = s.record_id
      ORDER BY s.account_id, s.record_id, s.original_transaction_id
      """
    ) { row in
      links.append(
        SeedLink(
          accountId: try row.string(at: 0), originalTransactionId: try row.string(at: 1),
          recordId: try row.int64(at: 2),
          environment: try row.optionalString(at: 3)))
    }
    return links
  }

  /// Every seed id's outcome so far.
  ///
  /// - Returns: outcomes by id.
  /// - Throws: `SQLiteError`.
  public func seedOutcomes() throws -> [String: SeedOutcomeRow] {
    var outcomes: [String: SeedOutcomeRow] = [:]
    try database.forEachRow(
      "SELECT original_transaction_id, outcome, environment, customer_id, last_error FROM seed_outcomes"
    ) { row in
      let outcome = SeedOutcomeRow(
        originalTransactionId: try row.string(at: 0), outcome: try row.string(at: 1),
        environment: try row.optionalString(at: 2), customerId: try row.optionalInt64(at: 3),
        lastError: try row.optionalString(at: 4))
      outcomes[outcome.originalTransactionId] = outcome
    }
    return outcomes
  }

  /// Records what became of a seed id (replacing an earlier outcome).
  ///
  /// - Parameters:
  ///   - outcome: the outcome.
  ///   - now: the current instant (Unix ms).
  /// - Throws: `SQLiteError`.
  public func storeSeedOutcome(_ outcome: SeedOutcomeRow, now: Int64) throws {
    try database.run(
      """
      INSERT OR REPLACE INTO seed_outcomes (original_transaction_id, outcome, environment, customer_id, last_error, updated_ms)
      VALUES (?, ?, ?, ?, ?, ?)
      """,
      binding: outcome.originalTransactionId, outcome.outcome, outcome.environment,
      outcome.customerId, outcome.lastError, now)
  }

  /// The customer whose stored history holds this id as a transaction or original transaction,
  /// or whose app transaction id it is.
  ///
  /// - Parameter id: a transaction, original transaction or app transaction id.
  /// - Returns: the customer's row id, or `nil`.
  /// - Throws: `SQLiteError`.
  public func customerOwning(_ id: String) throws -> Int64? {
    if let owner = try database.firstRow(
      "SELECT customer_id FROM transactions WHERE transaction_id = ?", binding: id,
      decode: { try $0.int64(at: 0) })
    {
      return owner
    }
    if let owner = try database.firstRow(
      "SELECT customer_id FROM transactions WHERE original_transaction_id = ? LIMIT 1", binding: id,
      decode: { try $0.int64(at: 0) })
    {
      return owner
    }
    // An app transaction id names its customer even when the customer bought nothing.
    return try database.firstRow(
      "SELECT id FROM customers WHERE app_transaction_id = ? OR customer_key = ? LIMIT 1",
      binding: id, id, decode: { try $0.int64(at: 0) })
  }

  private static let customerColumns = """
    id, customer_key, app_transaction_id, environment, walk_transaction_id, history_revision, history_pages,
    history_complete, statuses_complete, app_transaction_complete, compact_transactions_format,
    statuses_fetched_ms
    """

  private func customerRow(_ row: SQLiteRow) throws -> CustomerRow {
    CustomerRow(
      id: try row.int64(at: 0), key: try row.string(at: 1),
      appTransactionId: try row.optionalString(at: 2),
      environment: try row.string(at: 3), walkTransactionId: try row.string(at: 4),
      historyRevision: try row.optionalString(at: 5), historyPages: try row.int(at: 6),
      isHistoryComplete: try row.bool(at: 7), areStatusesComplete: try row.bool(at: 8),
      isAppTransactionComplete: try row.bool(at: 9),
      compactTransactionsFormat: try row.optionalInt(at: 10),
      statusesFetchedMilliseconds: try row.optionalInt64(at: 11))
  }

  /// The customer with this key.
  ///
  /// - Parameter key: the customer key.
  /// - Returns: the row, or `nil`.
  /// - Throws: `SQLiteError`.
  public func customer(key: String) throws -> CustomerRow? {
    try database.firstRow(
      "SELECT \(Self.customerColumns) FROM customers WHERE customer_key = ?", binding: key,
      decode: customerRow)
  }

  /// The customer with this row id.
  ///
  /// - Parameter id: the row id.
  /// - Returns: the row, or `nil`.
  /// - Throws: `SQLiteError`.
  public func customer(id: Int64) throws -> CustomerRow? {
    try database.firstRow(
      "SELECT \(Self.customerColumns) FROM customers WHERE id = ?", binding: id, decode: customerRow
    )
  }

  /// Every customer, by key.
  ///
  /// - Returns: the rows.
  /// - Throws: `SQLiteError`.
  public func customers() throws -> [CustomerRow] {
    var rows: [CustomerRow] = []
    try database.forEachRow("SELECT \(Self.customerColumns) FROM customers ORDER BY customer_key") {
      rows.append(try customerRow($0))
    }
    return rows
  }

  /// How many transactions each customer's stored history holds.
  ///
  /// - Returns: counts by customer row id; a customer without transactions has no entry.
  /// - Throws: `SQLiteError`.
  public func transactionCountsByCustomer() throws -> [Int64: Int] {
    var counts: [Int64: Int] = [:]
    try database.forEachRow(
      "SELECT customer_id, count(*) FROM transactions GROUP BY customer_id"
    ) { row in
      counts[try row.int64(at: 0)] = try row.int(at: 1)
    }
    return counts
  }

  /// Creates a customer, or returns the existing one with this key.
  ///
  /// - Parameters:
  ///   - key: the customer key.
  ///   - appTransactionId: its app transaction id, if known.
  ///   - environment: the environment that knows it.
  ///   - walkTransactionId: the id its history walk starts with.
  ///   - now: the current instant (Unix ms).
  ///   - compactFormat: the version of the compact copies its transactions will be stored with
  ///     (`nil`: none); a new customer has no transactions yet, so all of them have copies.
  /// - Returns: the row, and whether it was created now.
  /// - Throws: `SQLiteError`.
  public func claimCustomer(
    key: String, appTransactionId: String?, environment: String, walkTransactionId: String,
    now: Int64, compactFormat: Int? = nil
  ) throws -> (row: CustomerRow, isNew: Bool) {
    if let existing = try customer(key: key) { return (existing, false) }
    try database.run(
      """
      INSERT INTO customers (customer_key, app_transaction_id, environment, walk_transaction_id, updated_ms,
        compact_transactions_format)
      VALUES (?, ?, ?, ?, ?, ?)
      """,
      binding: key, appTransactionId, environment, walkTransactionId, now, compactFormat)
    guard let created = try customer(key: key) else {
      throw SQLiteError(
        code: .error, message: "the customer \(key) vanished after insertion", sql: nil,
        databasePath: path)
    }
    return (created, true)
  }

  /// Stores one page of a customer's history and the walk's progress, together: a crash never
  /// leaves a page without its revision or a revision without its page. A transaction already
  /// stored is replaced only by a copy signed at the same instant or later.
  ///
  /// - Parameters:
  ///   - rows: the page's transactions.
  ///   - customerId: the customer.
  ///   - revision: the page's revision.
  ///   - isLast: whether `hasMore` was false.
  ///   - now: the current instant (Unix ms).
  /// - Throws: `SQLiteError`.
  public func storeHistoryPage(
    _ rows: [TransactionRow], customerId: Int64, revision: String?, isLast: Bool, now: Int64
  ) throws {
    try writeTransaction {
      try upsertTransactions(rows, customerId: customerId)
      try database.run(
        """
        UPDATE customers SET history_revision = ?, history_pages = history_pages + 1, history_complete = ?, updated_ms = ?
        WHERE id = ?
        """,
        binding: revision, isLast, now, customerId)
    }
  }

  /// Stores transactions of a customer: a transaction already stored is replaced only by a copy
  /// signed at the same instant or later, and its compact copy with it. Runs inside the
  /// caller's transaction.
  func upsertTransactions(_ rows: [TransactionRow], customerId: Int64) throws {
    var lookup = HeaderLookup()
    // The versions of the copies written (`nil`: a transaction written without one).
    var copyFormats: Set<Int?> = []
    for row in rows {
      let signed = try storedParts(of: row.jws, lookup: &lookup)
      // A transaction Apple now lists under another customer moves, and its copy with it.
      let previousOwner = try database.firstRow(
        "SELECT customer_id FROM transactions WHERE transaction_id = ?", binding: row.transactionId,
        decode: { try $0.int64(at: 0) })
      try database.run(
        """
        INSERT INTO transactions (transaction_id, customer_id, original_transaction_id, product_id, subscription_group,
          type, purchase_ms, original_purchase_ms, expires_ms, revocation_ms, revocation_reason, revocation_type,
          revocation_percentage, is_upgraded, ownership, offer_type, offer_identifier, transaction_reason, environment,
          app_transaction_id, app_account_token, signed_ms, jws, jws_header_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (transaction_id) DO UPDATE SET
          customer_id = excluded.customer_id, original_transaction_id = excluded.original_transaction_id,
          product_id = excluded.product_id, subscription_group = excluded.subscription_group, type = excluded.type,
          purchase_ms = excluded.purchase_ms, original_purchase_ms = excluded.original_purchase_ms,
          expires_ms = excluded.expires_ms, revocation_ms = excluded.revocation_ms,
          revocation_reason = excluded.revocation_reason, revocation_type = excluded.revocation_type,
          revocation_percentage = excluded.revocation_percentage, is_upgraded = excluded.is_upgraded,
          ownership = excluded.ownership, offer_type = excluded.offer_type, offer_identifier = excluded.offer_identifier,
          transaction_reason = excluded.transaction_reason, environment = excluded.environment,
          app_transaction_id = excluded.app_transaction_id, app_account_token = excluded.app_account_token,
          signed_ms = excluded.signed_ms, jws = excluded.jws, jws_header_id = excluded.jws_header_id
        WHERE COALESCE(excluded.signed_ms, 0) >= COALESCE(transactions.signed_ms, 0)
        """,
        binding: row.transactionId, customerId, row.originalTransactionId, row.productId,
        row.subscriptionGroup, row.type,
        row.purchaseMilliseconds, row.originalPurchaseMilliseconds, row.expiresMilliseconds,
        row.revocationMilliseconds,
        row.revocationReason, row.revocationType, row.revocationPercentage, row.isUpgraded,
        row.ownership, row.offerType,
        row.offerIdentifier, row.transactionReason, row.environment, row.appTransactionId,
        row.appAccountToken,
        row.signedMilliseconds, signed.rest, signed.headerId)
      // The stored transaction was kept (an older copy): its compact copy stays as it is.
      guard try database.changes > 0 else { continue }
      try noteProductSeen(row)
      if let previousOwner, previousOwner != customerId {
        try database.run(
          "DELETE FROM compact_transactions WHERE customer_id = ? AND transaction_id = ?",
          binding: previousOwner, row.transactionId)
      }
      try storeCompactTransaction(
        row.compact, transactionId: row.transactionId, customerId: customerId)
      copyFormats.insert(row.compact?.format)
    }
    // A customer whose copies are no longer all of its version is marked as such.
    for format in copyFormats {
      try database.run(
        """
        UPDATE customers SET compact_transactions_format = NULL
        WHERE id = ? AND compact_transactions_format IS NOT NULL AND compact_transactions_format IS NOT ?
        """,
        binding: customerId, format)
    }
  }

  /// Records the product of a transaction just written in `products_seen`, keeping the greatest
  /// type and group seen for it (`MAX` ignores `NULL`; the scalar `MAX` of a value and `NULL` is
  /// `NULL`, hence the `COALESCE`).
  private func noteProductSeen(_ row: TransactionRow) throws {
    guard let productId = row.productId else { return }
    try database.run(
      """
      INSERT INTO products_seen (product_id, type, subscription_group) VALUES (?, ?, ?)
      ON CONFLICT (product_id) DO UPDATE SET
        type = COALESCE(MAX(type, excluded.type), type, excluded.type),
        subscription_group = COALESCE(
          MAX(subscription_group, excluded.subscription_group), subscription_group,
          excluded.subscription_group)
      """,
      binding: productId, row.type, row.subscriptionGroup)
  }

  /// Stores the compact copy of a transaction just written, or removes the copy it replaces.
  private func storeCompactTransaction(
    _ compact: CompactCopy?, transactionId: String, customerId: Int64
  ) throws {
    if let compact {
      try database.run(
        "INSERT OR REPLACE INTO compact_transactions (customer_id, transaction_id, format, body) VALUES (?, ?, ?, ?)",
        binding: customerId, transactionId, compact.format, compact.body)
    } else {
      try database.run(
        "DELETE FROM compact_transactions WHERE customer_id = ? AND transaction_id = ?",
        binding: customerId, transactionId)
    }
  }

  /// Replaces a customer's statuses and marks them complete.
  ///
  /// - Parameters:
  ///   - rows: every status entry.
  ///   - customerId: the customer.
  ///   - fetchedAt: the App Store's clock when they were fetched (Unix ms): the instant the
  ///     customer's data is true as of.
  ///   - now: the current instant (Unix ms).
  /// - Throws: `SQLiteError`.
  public func storeStatuses(_ rows: [StatusRow], customerId: Int64, fetchedAt: Int64, now: Int64)
    throws
  {
    try writeTransaction {
      try replaceStatuses(rows, customerId: customerId, fetchedAt: fetchedAt, now: now)
    }
  }

  /// The statement work of ``storeStatuses(_:customerId:fetchedAt:now:)``, inside the caller's
  /// transaction.
  func replaceStatuses(_ rows: [StatusRow], customerId: Int64, fetchedAt: Int64, now: Int64)
    throws
  {
    try database.run(
      "DELETE FROM subscription_statuses WHERE customer_id = ?", binding: customerId)
    var lookup = HeaderLookup()
    for row in rows {
      let transaction = try storedParts(of: row.transactionJWS, lookup: &lookup)
      let renewal = try row.renewalJWS.map { try storedParts(of: $0, lookup: &lookup) }
      try database.run(
        """
        INSERT OR REPLACE INTO subscription_statuses (customer_id, original_transaction_id, subscription_group, status,
          auto_renew_status, auto_renew_product_id, expiration_intent, billing_retry, grace_period_expires_ms,
          renewal_signed_ms, transaction_jws, renewal_jws, transaction_id, expires_ms, signed_ms,
          transaction_jws_header_id, renewal_jws_header_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        binding: customerId, row.originalTransactionId, row.subscriptionGroup, row.status,
        row.autoRenewStatus,
        row.autoRenewProductId, row.expirationIntent, row.isInBillingRetryPeriod,
        row.gracePeriodExpiresMilliseconds,
        row.renewalSignedMilliseconds, transaction.rest, renewal?.rest, row.transactionId,
        row.expiresMilliseconds, row.signedMilliseconds, transaction.headerId, renewal?.headerId)
    }
    try database.run(
      "UPDATE customers SET statuses_complete = 1, statuses_fetched_ms = ?, updated_ms = ? WHERE id = ?",
      binding: fetchedAt, now, customerId)
  }

  /// Stores a customer's app transaction (or that it has none) and marks it fetched.
  ///
  /// - Parameters:
  ///   - jws: the signed app transaction, or `nil` when the App Store has none (`4040019`).
  ///   - appTransactionId: its `appTransactionId`.
  ///   - originalApplicationVersion: its `originalApplicationVersion`.
  ///   - originalPurchaseMilliseconds: its `originalPurchaseDate`.
  ///   - customerId: the customer.
  ///   - now: the current instant (Unix ms).
  /// - Throws: `SQLiteError`.
  public func storeAppTransaction(
    jws: String?, appTransactionId: String?, originalApplicationVersion: String?,
    originalPurchaseMilliseconds: Int64?,
    customerId: Int64, now: Int64
  ) throws {
    try writeTransaction {
      try database.run(
        """
        INSERT OR REPLACE INTO app_transactions (customer_id, app_transaction_id, original_application_version,
          original_purchase_ms, jws)
        VALUES (?, ?, ?, ?, ?)
        """,
        binding: customerId, appTransactionId, originalApplicationVersion,
        originalPurchaseMilliseconds, jws)
      try database.run(
        "UPDATE customers SET app_transaction_complete = 1, updated_ms = ? WHERE id = ?",
        binding: now, customerId)
    }
  }

  /// Links an account to a customer (idempotent).
  ///
  /// - Parameters:
  ///   - accountId: the account.
  ///   - customerId: the customer.
  /// - Throws: `SQLiteError`.
  public func linkAccount(_ accountId: String, toCustomer customerId: Int64) throws {
    try database.run(
      "INSERT OR IGNORE INTO account_customers (account_id, customer_id) VALUES (?, ?)",
      binding: accountId, customerId)
  }
}

extension MigrationStore {
  /// One id's outcome, if recorded.
  ///
  /// - Parameter id: the original transaction id.
  /// - Returns: the outcome, or `nil`.
  /// - Throws: `SQLiteError`.
  public func seedOutcomes(for id: String) throws -> SeedOutcomeRow? {
    try database.firstRow(
      "SELECT original_transaction_id, outcome, environment, customer_id, last_error FROM seed_outcomes WHERE original_transaction_id = ?",
      binding: id
    ) { row in
      SeedOutcomeRow(
        originalTransactionId: try row.string(at: 0), outcome: try row.string(at: 1),
        environment: try row.optionalString(at: 2),
        customerId: try row.optionalInt64(at: 3), lastError: try row.optionalString(at: 4))
    }
  }

  /// Forgets a customer's history walk so it starts again (the App Store no longer accepts the
  /// stored revision). Stored transactions stay: the new walk replaces them copy by copy.
  ///
  /// - Parameters:
  ///   - customerId: the customer.
  ///   - now: the current instant (Unix ms).
  /// - Throws: `SQLiteError`.
  public func resetHistory(customerId: Int64, now: Int64) throws {
    try database.run(
      "UPDATE customers SET history_revision = NULL, history_pages = 0, history_complete = 0, updated_ms = ? WHERE id = ?",
      binding: now, customerId)
  }

  /// Marks every id that led to a customer as failed, with the error.
  ///
  /// - Parameters:
  ///   - customerId: the customer.
  ///   - error: the last error.
  ///   - now: the current instant (Unix ms).
  /// - Throws: `SQLiteError`.
  public func markSeedsFailed(customerId: Int64, error: String, now: Int64) throws {
    try database.run(
      "UPDATE seed_outcomes SET outcome = 'failed', last_error = ?, updated_ms = ? WHERE customer_id = ?",
      binding: error, now, customerId)
  }
}
