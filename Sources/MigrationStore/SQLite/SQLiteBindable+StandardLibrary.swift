// Conformances of the standard library's types. Each binds the one SQLite primitive that holds
// the value without loss; 64-bit integers never pass through Double.

extension Int64: SQLiteBindable {
  /// Binds the integer as an SQLite INTEGER.
  ///
  /// - Parameters:
  ///   - parameter: The statement parameter to bind.
  /// - Throws: `SQLiteError` when the parameter does not exist.
  public func bind(to parameter: SQLiteParameter) throws {
    try parameter.bindInt64(self)
  }
}

extension Int: SQLiteBindable {
  /// Binds the integer as an SQLite INTEGER.
  ///
  /// - Parameters:
  ///   - parameter: The statement parameter to bind.
  /// - Throws: `SQLiteError` when the parameter does not exist.
  public func bind(to parameter: SQLiteParameter) throws {
    try parameter.bindInt64(Int64(self))
  }
}

extension Double: SQLiteBindable {
  /// Binds the number as an SQLite REAL.
  ///
  /// - Parameters:
  ///   - parameter: The statement parameter to bind.
  /// - Throws: `SQLiteError` for NaN, which SQLite cannot store, or when the parameter does not
  ///   exist.
  public func bind(to parameter: SQLiteParameter) throws {
    try parameter.bindDouble(self)
  }
}

extension Bool: SQLiteBindable {
  /// Binds `true` as the INTEGER 1 and `false` as 0, SQLite's own convention.
  ///
  /// - Parameters:
  ///   - parameter: The statement parameter to bind.
  /// - Throws: `SQLiteError` when the parameter does not exist.
  public func bind(to parameter: SQLiteParameter) throws {
    try parameter.bindInt64(self ? 1 : 0)
  }
}

extension String: SQLiteBindable {
  /// Binds the string as UTF-8 TEXT; SQLite copies it.
  ///
  /// - Parameters:
  ///   - parameter: The statement parameter to bind.
  /// - Throws: `SQLiteError` when the parameter does not exist or the text is too long.
  public func bind(to parameter: SQLiteParameter) throws {
    try parameter.bindText(self)
  }
}

extension Array: SQLiteBindable where Element == UInt8 {
  /// Binds the bytes as a BLOB; SQLite copies them.
  ///
  /// - Parameters:
  ///   - parameter: The statement parameter to bind.
  /// - Throws: `SQLiteError` when the parameter does not exist or the blob is too long.
  public func bind(to parameter: SQLiteParameter) throws {
    try withUnsafeBytes { try parameter.bindBlob($0) }
  }
}

extension UnsafeRawBufferPointer: SQLiteBindable {
  /// Binds the bytes as a BLOB, without copying them when SQLite's use of them is bounded.
  ///
  /// Passed as a value of `run(binding:)`, `forEachRow(binding:body:)` or
  /// `firstRow(binding:decode:)`, the memory is lent to SQLite (`SQLITE_STATIC`) for the length
  /// of that call, which clears the binding before it returns: the zero-copy path for large
  /// payloads. Bound with `bind(_:at:)`, whose binding outlives the call, SQLite copies the bytes
  /// (`SQLITE_TRANSIENT`), because nothing guarantees the memory lives until the next step.
  ///
  /// - Parameters:
  ///   - parameter: The statement parameter to bind.
  /// - Throws: `SQLiteError` when the parameter does not exist or the blob is too long.
  public func bind(to parameter: SQLiteParameter) throws {
    try parameter.bindBorrowedBlob(self)
  }
}

extension Optional: SQLiteBindable where Wrapped: SQLiteBindable {
  /// Binds the wrapped value, or NULL for `nil`.
  ///
  /// - Parameters:
  ///   - parameter: The statement parameter to bind.
  /// - Throws: `SQLiteError` when the parameter does not exist or SQLite rejects the value.
  public func bind(to parameter: SQLiteParameter) throws {
    switch self {
    case .some(let value): try value.bind(to: parameter)
    case .none: try parameter.bindNull()
    }
  }
}
