import CSQLite

/// A prepared SQL statement: bind values, step through rows, reset, run again.
///
/// Most code never steps by hand; it uses one of the one-call paths, which bind the given values
/// in order, run the statement, and leave it reset with those bindings cleared:
///
/// ```swift
/// let insert = try database.cachedStatement("INSERT INTO account (id, name) VALUES (?, ?)")
/// try insert.run(binding: accountID, name)
///
/// try database.cachedStatement("SELECT id, name FROM account WHERE id > ?")
///   .forEachRow(binding: lowestID) { row in
///     accounts.append(Account(id: try row.int64(at: 0), name: try row.string(at: 1)))
///   }
/// ```
///
/// Values are a parameter pack, so binding allocates nothing and checks every value's type at
/// compile time; the number of values must match the statement's parameters. For manual control
/// there are ``bind(_:at:)``, ``bind(_:named:)``, ``step()``, ``reset()`` and ``clearBindings()``.
///
/// A statement belongs to its database's connection and, like it, is not `Sendable`. It is
/// finalised when released, or when its database closes, whichever comes first.
public final class SQLiteStatement {
  /// The SQL text the statement was prepared from.
  public let sql: String

  /// The connection the statement was prepared on.
  let connection: SQLiteConnection

  /// The `sqlite3_stmt*`; valid only while `connection` is open.
  private let handle: OpaquePointer

  /// Counts steps and resets, so a row can tell that the statement has moved past it.
  private(set) var position: UInt64 = 0

  /// The number of parameters (`?`, `?NNN`, `:name`, `@name`, `$name`) the statement takes.
  public let parameterCount: Int

  init(sql: String, handle: OpaquePointer, connection: SQLiteConnection) {
    self.sql = sql
    self.handle = handle
    self.connection = connection
    self.parameterCount = Int(sqlite3_bind_parameter_count(handle))
  }

  deinit {
    // Closing the connection finalises every statement; finalising again would be a double free.
    if connection.handle != nil {
      sqlite3_finalize(handle)
    }
  }

  // MARK: - Shape

  /// The number of columns each row has; 0 for statements that return no rows, and once the
  /// database has been closed.
  public var columnCount: Int {
    connection.handle == nil ? 0 : Int(sqlite3_column_count(handle))
  }

  /// The name of a result column, as the query spells it or its `AS` alias.
  ///
  /// - Parameters:
  ///   - column: The 0-based column index.
  /// - Returns: The name, or `nil` when the column does not exist.
  public func columnName(at column: Int) -> String? {
    guard (0..<columnCount).contains(column), let name = sqlite3_column_name(handle, Int32(column))
    else {
      return nil
    }
    return String(cString: name)
  }

  // MARK: - Binding

  /// Binds a value to a parameter by position; the binding stays until replaced or cleared.
  ///
  /// - Parameters:
  ///   - value: The value; `nil` optionals and `SQLiteNull()` bind NULL.
  ///   - index: The 1-based parameter index, as SQL counts `?` parameters.
  /// - Throws: `SQLiteError` with `.range` when there is no such parameter, or when SQLite
  ///   rejects the value or the statement's database was closed.
  public func bind(_ value: some SQLiteBindable, at index: Int) throws {
    guard index >= 1, index <= parameterCount, let position = Int32(exactly: index) else {
      throw failure(
        SQLITE_RANGE,
        message:
          "there is no parameter \(index); the statement takes \(Self.values(parameterCount))")
    }
    try value.bind(to: SQLiteParameter(statement: self, index: position, mayBorrowMemory: false))
  }

  /// Binds a value to a named parameter; the binding stays until replaced or cleared.
  ///
  /// - Parameters:
  ///   - value: The value; `nil` optionals and `SQLiteNull()` bind NULL.
  ///   - name: The parameter's name with its prefix, exactly as in the SQL: `":id"`, `"@id"`.
  /// - Throws: `SQLiteError` with `.range` when the statement has no parameter of that name, or
  ///   when SQLite rejects the value or the statement's database was closed.
  public func bind(_ value: some SQLiteBindable, named name: String) throws {
    let handle = try checkedHandle()
    let index = sqlite3_bind_parameter_index(handle, name)
    guard index > 0 else {
      throw failure(
        SQLITE_RANGE,
        message: "there is no parameter named \(name); write the name with its prefix (:, @ or $)"
          + " exactly as the SQL does")
    }
    try value.bind(to: SQLiteParameter(statement: self, index: index, mayBorrowMemory: false))
  }

  /// Sets every parameter back to NULL.
  public func clearBindings() {
    if connection.handle != nil {
      sqlite3_clear_bindings(handle)
    }
  }

  // MARK: - Stepping

  /// Runs the statement to its next row.
  ///
  /// Read the returned row before the next call to `step()` or `reset()`; reading it afterwards
  /// throws instead of returning another row's values.
  ///
  /// - Returns: The next row, or `nil` when the statement has finished.
  /// - Throws: `SQLiteError` for any failure, such as a constraint violation or a busy database.
  public func step() throws -> SQLiteRow? {
    let handle = try checkedHandle()
    position &+= 1
    switch sqlite3_step(handle) {
    case SQLITE_ROW:
      return SQLiteRow(statement: self, position: position)
    case SQLITE_DONE:
      return nil
    case let result:
      throw failure(result)
    }
  }

  /// Rewinds the statement so that it can run again; bindings are kept.
  ///
  /// This also ends the statement's read of the database, which matters in WAL mode: an
  /// unfinished read pins its snapshot and keeps checkpoints from completing. It does not throw:
  /// `sqlite3_reset` only repeats the failure of the last step, which `step()` already threw.
  public func reset() {
    position &+= 1
    if connection.handle != nil {
      sqlite3_reset(handle)
    }
  }

  // MARK: - One-call paths

  /// Binds the values in order, runs the statement to completion and resets it.
  ///
  /// With no values, the bindings already set are used and kept. Rows the statement returns are
  /// skipped; use ``forEachRow(binding:body:)`` for those.
  ///
  /// - Parameters:
  ///   - values: One value per parameter, in order; their bindings are cleared before returning.
  /// - Throws: `SQLiteError` when the number of values does not match the parameters, or when
  ///   binding or running fails; the statement is reset either way.
  public func run<each Value: SQLiteBindable>(binding values: repeat each Value) throws {
    let bound = try prepareForRun(binding: repeat each values)
    defer { finishRun(clearingBindings: bound) }
    while try step() != nil {}
  }

  /// Binds the values in order and calls `body` with each row the statement returns.
  ///
  /// - Parameters:
  ///   - values: One value per parameter, in order; their bindings are cleared before returning.
  ///   - body: Reads one row; the row is only valid during the call.
  /// - Throws: `SQLiteError` when binding or stepping fails, or whatever `body` throws, which
  ///   ends the iteration; the statement is reset either way.
  public func forEachRow<each Value: SQLiteBindable>(
    binding values: repeat each Value, body: (SQLiteRow) throws -> Void
  ) throws {
    let bound = try prepareForRun(binding: repeat each values)
    defer { finishRun(clearingBindings: bound) }
    while let row = try step() {
      try body(row)
    }
  }

  /// Binds the values in order and decodes the first row, if there is one.
  ///
  /// - Parameters:
  ///   - values: One value per parameter, in order; their bindings are cleared before returning.
  ///   - decode: Turns the first row into a value; later rows are not read.
  /// - Returns: The decoded first row, or `nil` when the statement returns no rows.
  /// - Throws: `SQLiteError` when binding or stepping fails, or whatever `decode` throws; the
  ///   statement is reset either way.
  public func firstRow<each Value: SQLiteBindable, Result>(
    binding values: repeat each Value, decode: (SQLiteRow) throws -> Result
  ) throws -> Result? {
    let bound = try prepareForRun(binding: repeat each values)
    defer { finishRun(clearingBindings: bound) }
    guard let row = try step() else {
      return nil
    }
    return try decode(row)
  }

  /// Resets the statement and binds a pack of values to parameters 1, 2, 3, ...
  ///
  /// - Returns: Whether any value was bound, which means the bindings must be cleared afterwards.
  private func prepareForRun<each Value: SQLiteBindable>(
    binding values: repeat each Value
  ) throws -> Bool {
    reset()
    var index: Int32 = 0
    do {
      for value in repeat each values {
        index += 1
        try value.bind(to: SQLiteParameter(statement: self, index: index, mayBorrowMemory: true))
      }
    } catch {
      // A borrowed blob may already be bound; it must not outlive this call.
      clearBindings()
      throw error
    }
    guard index == 0 || Int(index) == parameterCount else {
      clearBindings()
      throw failure(
        SQLITE_RANGE,
        message: "the statement takes \(Self.values(parameterCount)) but \(index) were given")
    }
    return index > 0
  }

  private func finishRun(clearingBindings: Bool) {
    reset()
    // Clearing is what makes lending memory (SQLITE_STATIC) to SQLite safe: once the binding is
    // gone, SQLite can no longer read the caller's buffer after the call returns.
    if clearingBindings {
      clearBindings()
    }
  }

  // MARK: - Internal

  /// Whether the statement is part-way through its rows, so that a cache must not hand it out.
  var isStepping: Bool {
    connection.handle != nil && sqlite3_stmt_busy(handle) != 0
  }

  /// The statement pointer, after checking that its connection is still open.
  ///
  /// - Throws: `SQLiteError` with `.misuse` when the database has been closed.
  func checkedHandle() throws -> OpaquePointer {
    _ = try connection.checkedHandle()
    return handle
  }

  /// The error for a failed SQLite call on this statement, with SQLite's message.
  func failure(_ result: Int32, detail: String? = nil) -> SQLiteError {
    let error = connection.error(result, sql: sql)
    guard let detail else {
      return error
    }
    return SQLiteError(
      code: error.code, message: "\(detail): \(error.message)", sql: sql,
      databasePath: connection.path)
  }

  /// "1 value", "2 values": how error messages count parameters.
  static func values(_ count: Int) -> String {
    count == 1 ? "1 value" : "\(count) values"
  }

  /// An error this layer detected, with its own message.
  func failure(_ result: Int32, message: String) -> SQLiteError {
    SQLiteError(
      code: SQLiteResultCode(rawValue: result), message: message, sql: sql,
      databasePath: connection.path)
  }
}

@available(*, unavailable, message: "a statement is confined to its connection's thread")
extension SQLiteStatement: Sendable {}
