// MARK: - Store properties

extension MigrationStore {
  /// A property of the store, or `nil` when it was never set.
  ///
  /// - Parameter name: the property, such as ``appStorePropertyName``.
  /// - Returns: its value.
  /// - Throws: `SQLiteError`.
  public func property(_ name: String) throws -> String? {
    try database.firstRow(
      "SELECT value FROM store_properties WHERE name = ?", binding: name
    ) { row in try row.string(at: 0) }
  }

  /// Sets a property only if it is not set yet, and returns the value it holds afterwards: the
  /// given one, or the one an earlier run set. Check-and-set happens in one write transaction,
  /// so two processes cannot both win.
  ///
  /// - Parameters:
  ///   - name: the property.
  ///   - value: the value to set when there is none.
  ///   - now: the clock (Unix ms).
  /// - Returns: the property's value.
  /// - Throws: `SQLiteError`.
  public func claimProperty(_ name: String, value: String, now: Int64) throws -> String {
    try writeTransaction {
      try database.run(
        "INSERT OR IGNORE INTO store_properties (name, value, updated_ms) VALUES (?, ?, ?)",
        binding: name, value, now)
      return try property(name) ?? value
    }
  }

  /// Sets a property, replacing any value it held.
  ///
  /// - Parameters:
  ///   - name: the property.
  ///   - value: its new value.
  ///   - now: the clock (Unix ms).
  /// - Throws: `SQLiteError`.
  public func setProperty(_ name: String, value: String, now: Int64) throws {
    try database.run(
      """
      INSERT INTO store_properties (name, value, updated_ms) VALUES (?, ?, ?)
      ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_ms = excluded.updated_ms
      """,
      binding: name, value, now)
  }

  /// The property naming which App Store the store's backfilled data came from.
  public static let appStorePropertyName = "app_store"
}
