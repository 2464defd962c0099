// MARK: - What the comparison reads

extension MigrationStore {
  /// Every account id, sorted.
  ///
  /// - Returns: the ids.
  /// - Throws: `SQLiteError`.
  public func accountIds() throws -> [String] {
    var ids: [String] = []
    try database.forEachRow("SELECT account_id FROM accounts ORDER BY account_id") {
      ids.append(try $0.string(at: 0))
    }
    return ids
  }

  /// How many accounts the store holds.
  ///
  /// - Returns: the count.
  /// - Throws: `SQLiteError`.
  public func accountCount() throws -> Int {
    try count("SELECT COUNT(*) FROM accounts")
  }

  /// Account ids a page at a time, sorted: a pass over every account holds one page of ids,
  /// not all of them.
  ///
  /// - Parameters:
  ///   - after: the last id of the previous page, or `nil` for the first page.
  ///   - limit: the most ids to return.
  /// - Returns: the page; empty after the last account.
  /// - Throws: `SQLiteError`.
  public func accountIds(after: String?, limit: Int) throws -> [String] {
    var ids: [String] = []
    let append = { (row: SQLiteRow) in ids.append(try row.string(at: 0)) }
    if let after {
      try database.forEachRow(
        "SELECT account_id FROM accounts WHERE account_id > ? ORDER BY account_id LIMIT ?",
        binding: after, limit, body: append)
    } else {
      try database.forEachRow(
        "SELECT account_id FROM accounts ORDER BY account_id LIMIT ?", binding: limit,
        body: append)
    }
    return ids
  }

  /// Every product the App Store's stored transactions name, with the type and subscription
  /// group Apple signed for it: what the comparison learns of products the catalogue omits.
  /// Read from `products_seen`, a row per product that storing each transaction keeps, not
  /// from the transactions themselves.
  ///
  /// - Returns: one entry per product id, sorted; the greatest type and group stored with it
  ///   (`nil` when no transaction carried them).
  /// - Throws: `SQLiteError`.
  public func productsSeen() throws -> [(productId: String, type: String?, group: String?)] {
    var products: [(String, String?, String?)] = []
    try database.forEachRow(
      "SELECT product_id, type, subscription_group FROM products_seen ORDER BY product_id"
    ) {
      products.append(
        (try $0.string(at: 0), try $0.optionalString(at: 1), try $0.optionalString(at: 2)))
    }
    return products
  }

  /// Whether the store holds an account.
  ///
  /// - Parameter accountId: the account.
  /// - Returns: `true` when it was ingested.
  /// - Throws: `SQLiteError`.
  public func hasAccount(_ accountId: String) throws -> Bool {
    try database.firstRow(
      "SELECT 1 FROM accounts WHERE account_id = ?", binding: accountId
    ) { _ in true } ?? false
  }

  /// Everything stored for one account.
  ///
  /// - Parameters:
  ///   - accountId: the account.
  ///   - compactFormat: the compact response form's current version: usable responses with a
  ///     compact copy of this version come with it instead of their verbatim bytes (`nil`:
  ///     verbatim bytes always).
  ///   - compactTransactionFormat: the compact transaction form's current version: customers
  ///     whose every transaction has a copy of this version come with the copies instead of the
  ///     signed values (`nil`: signed values always).
  /// - Returns: its records, seeds and customers.
  /// - Throws: `SQLiteError`.
  public func accountRecords(
    _ accountId: String, compactFormat: Int? = nil, compactTransactionFormat: Int? = nil
  ) throws -> AccountRecords {
    var records: [AccountRecords.Record] = []
    // Listed from `legacy_records_by_account_version` alone (it covers every column named
    // here), so the table's pages, which hold the verbatim bytes, are read only for the records
    // that still need them.
    var needingBytes: [(index: Int, id: Int64)] = []
    var partial: [(index: Int, id: Int64)] = []
    try database.forEachRow(
      """
      SELECT r.id, r.version, r.kind, r.source_path, r.source_line, r.status, r.environment,
        r.captured_ms, r.format, r.kind = 'response' AND r.status IN (0, 21006), c.format, c.body,
        r.set_aside_count
      FROM legacy_records r LEFT JOIN compact_responses c ON c.record_id = r.id
      WHERE r.account_id = ? ORDER BY r.version
      """, binding: accountId
    ) { row in
      let isUsable = try row.int64(at: 9) == 1
      let storedFormat = try row.optionalInt(at: 10)
      let compact =
        isUsable && compactFormat != nil && storedFormat == compactFormat
        ? try row.optionalBlob(at: 11) : nil
      if isUsable, compact == nil { needingBytes.append((records.count, try row.int64(at: 0))) }
      if try row.int(at: 12) > 0 { partial.append((records.count, try row.int64(at: 0))) }
      records.append(
        AccountRecords.Record(
          version: try row.int(at: 1), kind: try row.string(at: 2), format: try row.string(at: 8),
          sourcePath: try row.string(at: 3),
          sourceLine: try row.optionalInt(at: 4), status: try row.optionalInt64(at: 5),
          environment: try row.optionalString(at: 6),
          capturedMilliseconds: try row.optionalInt64(at: 7), raw: nil, compact: compact))
    }
    for (index, id) in needingBytes {
      records[index].raw = try database.firstRow(
        "SELECT raw FROM legacy_records WHERE id = ?", binding: id,
        decode: { try $0.blob(at: 0) })
    }
    for (index, id) in partial {
      records[index].setAside = try setAsideFields(ofRecord: id)
    }
    var seeds: [AccountRecords.Seed] = []
    try database.forEachRow(
      """
      SELECT s.original_transaction_id, MIN(s.source), o.outcome, o.environment, o.customer_id, o.last_error
      FROM seeds s LEFT JOIN seed_outcomes o ON o.original_transaction_id = s.original_transaction_id
      WHERE s.account_id = ? GROUP BY s.original_transaction_id ORDER BY s.original_transaction_id
      """, binding: accountId
    ) { row in
      let id = try row.string(at: 0)
      let outcome = try row.optionalString(at: 2).map { outcome in
        SeedOutcomeRow(
          originalTransactionId: id, outcome: outcome, environment: try row.optionalString(at: 3),
          customerId: try row.optionalInt64(at: 4), lastError: try row.optionalString(at: 5))
      }
      seeds.append(
        AccountRecords.Seed(
          originalTransactionId: id, source: try row.string(at: 1), outcome: outcome))
    }
    var customerIds: [Int64] = []
    try database.forEachRow(
      // By key, not by row id: row ids follow the order concurrent requests happened to finish.
      "SELECT a.customer_id FROM account_customers a JOIN customers c ON c.id = a.customer_id WHERE a.account_id = ? ORDER BY c.customer_key",
      binding: accountId
    ) {
      customerIds.append(try $0.int64(at: 0))
    }
    var customers: [AccountRecords.Customer] = []
    // The header texts this account's values name, each read once and shared by its values.
    var headers: [Int64: String] = [:]
    func signedText(headerId: Int64?, rest: String) throws -> StoredSignedText {
      guard let headerId else { return StoredSignedText(whole: rest) }
      if let header = headers[headerId] { return StoredSignedText(header: header, rest: rest) }
      guard
        let header = try database.firstRow(
          Self.headerText, binding: headerId,
          decode: { try $0.string(at: 0) })
      else {
        throw SQLiteError(
          code: .corrupt,
          message:
            "a stored signed value of account \(accountId) names JWS header \(headerId), which the store does not hold",
          sql: Self.headerText, databasePath: path)
      }
      headers[headerId] = header
      return StoredSignedText(header: header, rest: rest)
    }
    for id in customerIds {
      guard let row = try customer(id: id) else { continue }
      var others: [String] = []
      try database.forEachRow(
        "SELECT account_id FROM account_customers WHERE customer_id = ? AND account_id <> ? ORDER BY account_id",
        binding: id, accountId
      ) { others.append(try $0.string(at: 0)) }
      // The compact copies when they are complete: then the signed values, on pages scattered
      // through the largest table, are not read at all.
      var copies: [[UInt8]]?
      if let compactTransactionFormat {
        copies = try compactTransactions(ofCustomer: row, format: compactTransactionFormat)
      }
      var transactions: [StoredSignedText] = []
      if copies == nil {
        try database.forEachRow(
          Self.transactionsOfCustomer, binding: id
        ) {
          transactions.append(
            try signedText(headerId: try $0.optionalInt64(at: 0), rest: try $0.string(at: 1)))
        }
      }
      var statuses: [AccountRecords.Status] = []
      try database.forEachRow(
        Self.statusesOfCustomer, binding: id
      ) { status in
        statuses.append(
          AccountRecords.Status(
            originalTransactionId: try status.string(at: 0),
            subscriptionGroup: try status.string(at: 1),
            status: try status.int64(at: 2),
            transaction: try signedText(
              headerId: try status.optionalInt64(at: 3), rest: try status.string(at: 4)),
            renewal: try status.optionalString(at: 6).map {
              try signedText(headerId: try status.optionalInt64(at: 5), rest: $0)
            }))
      }
      customers.append(
        AccountRecords.Customer(
          row: row, otherAccounts: others, transactions: transactions,
          compactTransactions: copies, statuses: statuses,
          writtenTokens: try writtenTokens(customerId: id),
          originalApplicationVersion: row.isAppTransactionComplete
            ? try database.firstRow(
              "SELECT original_application_version FROM app_transactions WHERE customer_id = ?",
              binding: id, decode: { try $0.optionalString(at: 0) }) ?? nil : nil))
    }
    return AccountRecords(
      accountId: accountId, records: records, seeds: seeds, customers: customers,
      orders: try orders(ofAccount: accountId).map {
        AccountRecords.Order(orderId: $0.orderId, outcome: $0.outcome)
      })
  }

  /// The text of one stored JWS header.
  private static let headerText = "SELECT header FROM jws_headers WHERE id = ?"

  /// A customer's signed transactions, by transaction id: header id and the rest (see
  /// ``StoredSignedText``).
  private static let transactionsOfCustomer =
    "SELECT jws_header_id, jws FROM transactions WHERE customer_id = ? ORDER BY transaction_id"

  /// A customer's statuses with their signed values' header ids and rests, by subscription.
  private static let statusesOfCustomer =
    "SELECT original_transaction_id, subscription_group, status, transaction_jws_header_id, "
    + "transaction_jws, renewal_jws_header_id, renewal_jws "
    + "FROM subscription_statuses WHERE customer_id = ? ORDER BY original_transaction_id"
}
