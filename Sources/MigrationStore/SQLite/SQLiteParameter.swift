import CSQLite

/// One parameter of a prepared statement, about to receive a value.
///
/// `SQLiteBindable` conformances receive one and call exactly one of its `bind` methods. It is
/// only valid during that call: it refers to its statement, which is not `Sendable`.
public struct SQLiteParameter {
  /// The statement the parameter belongs to.
  let statement: SQLiteStatement

  /// The parameter's 1-based index, as SQLite counts parameters.
  let index: Int32

  /// Whether the caller guarantees that borrowed memory outlives SQLite's use of it: true only
  /// inside the one-call paths, which clear their bindings before returning.
  let mayBorrowMemory: Bool

  /// Binds a 64-bit integer.
  ///
  /// - Parameters:
  ///   - value: The integer.
  /// - Throws: `SQLiteError` when the parameter does not exist or the statement was closed.
  public func bindInt64(_ value: Int64) throws {
    let handle = try statement.checkedHandle()
    try check(sqlite3_bind_int64(handle, index, value))
  }

  /// Binds a floating-point number.
  ///
  /// - Parameters:
  ///   - value: The number; infinities are stored as they are.
  /// - Throws: `SQLiteError` with `.mismatch` for NaN, which SQLite would silently store as
  ///   NULL; or when the parameter does not exist or the statement was closed.
  public func bindDouble(_ value: Double) throws {
    let handle = try statement.checkedHandle()
    guard !value.isNaN else {
      throw statement.failure(
        SQLITE_MISMATCH,
        message: "parameter \(index) is NaN, which SQLite would store as NULL; bind nil for a"
          + " missing number")
    }
    try check(sqlite3_bind_double(handle, index, value))
  }

  /// Binds UTF-8 text; SQLite copies it, so the string may change or go away afterwards.
  ///
  /// An empty string binds empty TEXT, not NULL.
  ///
  /// - Parameters:
  ///   - value: The text.
  /// - Throws: `SQLiteError` when the parameter does not exist, the text exceeds SQLite's
  ///   length limit or the statement was closed.
  public func bindText(_ value: String) throws {
    let handle = try statement.checkedHandle()
    // withUTF8 is mutating only so that it can make a bridged string contiguous; a native
    // string, which is every string on Linux, is lent as it is, without a copy.
    var text = value
    let result = text.withUTF8 { utf8 in
      // A NULL pointer would bind NULL, so an empty string points at a static empty C string.
      let start = UnsafeRawPointer(utf8.baseAddress ?? Self.emptyText.utf8Start)
      return sqlite3_bind_text64(
        handle, index, start.assumingMemoryBound(to: CChar.self), sqlite3_uint64(utf8.count),
        Self.transient, UInt8(SQLITE_UTF8))
    }
    try check(result)
  }

  /// Binds a BLOB; SQLite copies the bytes, so the memory may change or go away afterwards.
  ///
  /// An empty buffer binds an empty BLOB, not NULL.
  ///
  /// - Parameters:
  ///   - bytes: The bytes.
  /// - Throws: `SQLiteError` when the parameter does not exist, the blob exceeds SQLite's
  ///   length limit or the statement was closed.
  public func bindBlob(_ bytes: UnsafeRawBufferPointer) throws {
    try bindBlob(bytes, destructor: Self.transient)
  }

  /// Binds NULL.
  ///
  /// - Throws: `SQLiteError` when the parameter does not exist or the statement was closed.
  public func bindNull() throws {
    let handle = try statement.checkedHandle()
    try check(sqlite3_bind_null(handle, index))
  }

  // MARK: - Borrowing

  /// Binds a BLOB without copying when this binding is cleared before the caller's memory can
  /// go away (see `mayBorrowMemory`), and with a copy otherwise.
  ///
  /// Internal on purpose: a conformance outside this module could pass memory that dies when its
  /// own closure returns, before SQLite reads it; only the raw buffer pointer, whose lifetime is
  /// the caller's explicit promise, uses this.
  func bindBorrowedBlob(_ bytes: UnsafeRawBufferPointer) throws {
    try bindBlob(bytes, destructor: mayBorrowMemory ? Self.static : Self.transient)
  }

  private func bindBlob(
    _ bytes: UnsafeRawBufferPointer, destructor: sqlite3_destructor_type?
  ) throws {
    let handle = try statement.checkedHandle()
    guard let start = bytes.baseAddress, !bytes.isEmpty else {
      // sqlite3_bind_blob with a NULL pointer binds NULL; a zero-length zeroblob is an empty BLOB.
      try check(sqlite3_bind_zeroblob(handle, index, 0))
      return
    }
    try check(sqlite3_bind_blob64(handle, index, start, sqlite3_uint64(bytes.count), destructor))
  }

  // MARK: - Helpers

  private func check(_ result: Int32) throws {
    guard result == SQLITE_OK else {
      throw statement.failure(result, detail: "binding parameter \(index)")
    }
  }

  private static let emptyText: StaticString = ""

  /// `SQLITE_TRANSIENT`: SQLite copies the value before the bind call returns. The C macro is
  /// the destructor pointer value -1, which Swift cannot import, so it is rebuilt here.
  private static var transient: sqlite3_destructor_type {
    unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
  }

  /// `SQLITE_STATIC` (a null destructor): SQLite uses the caller's memory until the binding is
  /// replaced or cleared, or the statement is finalised.
  private static var `static`: sqlite3_destructor_type? {
    nil
  }
}

@available(*, unavailable, message: "a statement is confined to its connection's thread")
extension SQLiteParameter: Sendable {}
