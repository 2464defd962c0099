// MARK: - Compact copies of transactions (schema version 9)

extension MigrationStore {
  /// The customers some of whose stored transactions lack a compact copy of this version:
  /// customers stored before schema version 9, or before the compact form last changed.
  ///
  /// - Parameter format: the compact form's current version.
  /// - Returns: their row ids, ascending.
  /// - Throws: `SQLiteError`.
  public func customersLackingCompactTransactions(format: Int) throws -> [Int64] {
    var ids: [Int64] = []
    try database.forEachRow(
      "SELECT id FROM customers WHERE compact_transactions_format IS NOT ? ORDER BY id",
      binding: format
    ) { ids.append(try $0.int64(at: 0)) }
    return ids
  }

  /// A customer's stored transactions as signed, by transaction id: what its compact copies
  /// are made from.
  ///
  /// - Parameter customerId: the customer.
  /// - Returns: each transaction's id and signed value.
  /// - Throws: `SQLiteError`.
  public func signedTransactions(ofCustomer customerId: Int64) throws
    -> [(transactionId: String, value: StoredSignedText)]
  {
    var values: [(String, StoredSignedText)] = []
    try database.forEachRow(
      """
      SELECT t.transaction_id, h.header, t.jws FROM transactions t
      LEFT JOIN jws_headers h ON h.id = t.jws_header_id
      WHERE t.customer_id = ? ORDER BY t.transaction_id
      """, binding: customerId
    ) { row in
      values.append(
        (
          try row.string(at: 0),
          StoredSignedText(header: try row.optionalString(at: 1), rest: try row.string(at: 2))
        ))
    }
    return values
  }

  /// Replaces a customer's compact copies with one per stored transaction and records that
  /// all of them are of this version. Runs inside the caller's transaction, which should also
  /// have read the values the copies were made from.
  ///
  /// - Parameters:
  ///   - copies: a copy of each of the customer's stored transactions, by transaction id.
  ///   - format: the version of the compact form the copies are in.
  ///   - customerId: the customer.
  /// - Throws: `SQLiteError`.
  public func replaceCompactTransactions(
    _ copies: [(transactionId: String, body: [UInt8])], format: Int, customerId: Int64
  ) throws {
    try database.run("DELETE FROM compact_transactions WHERE customer_id = ?", binding: customerId)
    for copy in copies {
      try database.run(
        "INSERT INTO compact_transactions (customer_id, transaction_id, format, body) VALUES (?, ?, ?, ?)",
        binding: customerId, copy.transactionId, format, copy.body)
    }
    try database.run(
      "UPDATE customers SET compact_transactions_format = ? WHERE id = ?",
      binding: format, customerId)
  }

  /// A customer's compact copies, by transaction id, when every stored transaction of the
  /// customer has one of this version; `nil` otherwise (its signed values are read instead).
  func compactTransactions(ofCustomer customer: CustomerRow, format: Int) throws -> [[UInt8]]? {
    guard customer.compactTransactionsFormat == format else { return nil }
    var bodies: [[UInt8]] = []
    var isComplete = true
    try database.forEachRow(
      "SELECT format, body FROM compact_transactions WHERE customer_id = ? ORDER BY transaction_id",
      binding: customer.id
    ) { row in
      if try row.int(at: 0) != format { isComplete = false }
      bodies.append(try row.blob(at: 1))
    }
    return isComplete ? bodies : nil
  }
}
