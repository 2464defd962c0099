// MARK: - JWS headers stored once (schema version 6)

extension MigrationStore {
  /// A signed value as the store keeps it: the id of its header in `jws_headers` and the rest of
  /// the value after the first `.`; or, for text that is not a compact JWS, the whole text and no
  /// header id.
  struct StoredSignedParts {
    /// The header's row in `jws_headers`, or `nil` when `rest` is the whole value.
    var headerId: Int64?
    /// Payload and signature (without the leading `.`), or the whole value.
    var rest: String
  }

  /// The header looked up last within one store call: the values of a page share one header, so
  /// one comparison spares the lookup. It lives only as long as the call (inside its
  /// transaction), so an id from a transaction that rolled back is never used again.
  struct HeaderLookup {
    fileprivate var header = ""
    fileprivate var id: Int64 = 0
  }

  /// The SQL expression giving a stored value back whole, for a JWS column and its header id
  /// column: `header || '.' || rest` when the header is stored apart, the column as it is when
  /// not.
  ///
  /// - Parameters:
  ///   - column: the JWS column, qualified as the query needs.
  ///   - headerId: its header id column, qualified the same way.
  /// - Returns: the expression.
  static func wholeSignedValue(_ column: String, headerId: String) -> String {
    "CASE WHEN \(headerId) IS NULL THEN \(column) "
      + "ELSE (SELECT header FROM jws_headers WHERE id = \(headerId)) || '.' || \(column) END"
  }

  /// Splits a signed value into its header, stored once in `jws_headers`, and the rest. Runs
  /// inside the caller's transaction.
  ///
  /// - Parameters:
  ///   - jws: the value as Apple sent it.
  ///   - lookup: the header looked up last in this call.
  /// - Returns: what to store.
  /// - Throws: `SQLiteError`.
  func storedParts(of jws: String, lookup: inout HeaderLookup) throws -> StoredSignedParts {
    let utf8 = jws.utf8
    guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")), dot != utf8.startIndex else {
      return StoredSignedParts(headerId: nil, rest: jws)
    }
    let rest = String(jws[utf8.index(after: dot)...])
    if lookup.id != 0, utf8[..<dot].elementsEqual(lookup.header.utf8) {
      return StoredSignedParts(headerId: lookup.id, rest: rest)
    }
    let header = String(jws[..<dot])
    try database.run(
      "INSERT INTO jws_headers (header) VALUES (?) ON CONFLICT (header) DO NOTHING",
      binding: header)
    guard
      let id = try database.firstRow(
        "SELECT id FROM jws_headers WHERE header = ?", binding: header,
        decode: { try $0.int64(at: 0) })
    else {
      // The row was inserted or found just above, in this transaction.
      return StoredSignedParts(headerId: nil, rest: jws)
    }
    lookup = HeaderLookup(header: header, id: id)
    return StoredSignedParts(headerId: id, rest: rest)
  }
}
