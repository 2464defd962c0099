import CSQLite

/// The `sqlite3*` handle shared by a database and the statements prepared on it.
///
/// Statements hold this object, not the `SQLiteDatabase`, so that the database's statement cache
/// (which holds statements) does not form a reference cycle. Closing finalises every statement of
/// the connection; a statement asks ``checkedHandle()`` before each call so that it never touches
/// a finalised `sqlite3_stmt*`. Like its owner it is confined to one thread at a time.
final class SQLiteConnection {
  /// The open handle, or `nil` once the connection has been closed.
  private(set) var handle: OpaquePointer?

  /// The database file, as errors name it: a path, `:memory:` or `(temporary)`.
  let path: String

  init(handle: OpaquePointer, path: String) {
    self.handle = handle
    self.path = path
  }

  /// The open handle.
  ///
  /// - Throws: `SQLiteError` with `.misuse` when the connection has been closed.
  func checkedHandle() throws -> OpaquePointer {
    guard let handle else {
      throw SQLiteError(
        code: .misuse,
        message: "the database connection was closed; open the database again to use it",
        sql: nil,
        databasePath: path)
    }
    return handle
  }

  /// Builds the error for a failed call, reading SQLite's message for it.
  ///
  /// Call it straight after the failing call: `sqlite3_errmsg` describes the most recent failure
  /// on the connection, and connections are never shared between threads.
  func error(_ code: Int32, sql: String?) -> SQLiteError {
    let message: String
    if let handle, let text = sqlite3_errmsg(handle) {
      message = String(cString: text)
    } else {
      message = String(cString: sqlite3_errstr(code))
    }
    return SQLiteError(
      code: SQLiteResultCode(rawValue: code), message: message, sql: sql, databasePath: path)
  }

  /// Finalises every statement of the connection and closes it.
  ///
  /// - Throws: `SQLiteError` when SQLite refuses to close (an unfinished backup, for example);
  ///   the handle is then released by `sqlite3_close_v2` as soon as SQLite allows.
  func close() throws {
    guard let handle else {
      return
    }
    finaliseAllStatements(handle)
    let result = sqlite3_close(handle)
    if result != SQLITE_OK {
      let failure = error(result, sql: nil)
      sqlite3_close_v2(handle)
      self.handle = nil
      throw failure
    }
    self.handle = nil
  }

  /// Closes without reporting, for `deinit` (which cannot throw) and for a failed open (which
  /// throws its own, more useful error).
  ///
  /// `sqlite3_close_v2` always succeeds: if something still needs the handle, SQLite keeps it as
  /// a zombie and frees it later, so nothing leaks and nothing is left half-closed.
  func closeWithoutReporting() {
    guard let handle else {
      return
    }
    finaliseAllStatements(handle)
    sqlite3_close_v2(handle)
    self.handle = nil
  }

  private func finaliseAllStatements(_ handle: OpaquePointer) {
    // SQLite keeps a list of the connection's statements; this reaches the ones a caller still
    // holds as well as the cached ones. Their SQLiteStatement objects see the closed connection
    // and neither use nor finalise the pointer again.
    while let statement = sqlite3_next_stmt(handle, nil) {
      sqlite3_finalize(statement)
    }
  }
}
