import CSQLite

/// A connection to a SQLite database: the one place in receipt-migrate that talks to libsqlite3.
///
/// ```swift
/// let database = try SQLiteDatabase(location: .path(".receipt-migrate/store.sqlite"))
/// try database.transaction(.immediate) {
///   try database.run("INSERT INTO account (id, name) VALUES (?, ?)", binding: id, name)
/// }
/// let count = try database.firstRow("SELECT count(*) FROM account") { try $0.int64(at: 0) }
/// ```
///
/// Every connection is opened with `foreign_keys=ON`, extended result codes, a busy timeout
/// (5 seconds unless configured), and, for a writable file, `journal_mode=WAL` with
/// `synchronous=NORMAL`. A new file is created `0600` in directories created `0700`.
///
/// ## Threading and durability
///
/// A connection is confined to one thread or actor at a time, and the type system holds every
/// caller to that: `SQLiteDatabase`, ``SQLiteStatement`` and ``SQLiteRow`` are deliberately not
/// `Sendable`. Open one connection per thread or actor that needs the database; never share one.
///
/// libsqlite3 must be built thread-safe (`sqlite3_threadsafe()` non-zero; Debian builds it in
/// serialized mode), because separate connections may then be used from separate threads at the
/// same time; opening refuses a single-threaded build. Connections are opened with
/// `SQLITE_OPEN_NOMUTEX`, multi-thread mode, which skips the per-call mutex of serialized mode:
/// that mutex protects a connection shared between threads, which confinement already rules out,
/// and it would cost a lock on every bind, step and column read of the ingest's hot path.
///
/// In WAL mode readers and the single writer do not block each other: any number of
/// connections, in this process or others, read a consistent snapshot while one connection
/// writes. Writers take turns; a connection that cannot get the write lock waits up to its busy
/// timeout and then throws `SQLITE_BUSY`. Start write transactions with `.immediate`, so a
/// transaction waits for the lock at `BEGIN` instead of failing at its first write.
///
/// `synchronous=NORMAL` in WAL mode means a committed transaction survives a crash of the
/// process, always; after a power failure or kernel crash the most recent commits may be rolled
/// back, but the database is never corrupted. Every stage of receipt-migrate can resume from the
/// store, so redoing a few seconds of work after a power cut is the right trade for not waiting
/// on `fsync` at every commit.
public final class SQLiteDatabase {
  /// Where the database lives.
  public let location: Location

  /// Whether the connection may write.
  public let mode: AccessMode

  /// The handle, shared with this connection's statements.
  let connection: SQLiteConnection

  /// Prepared statements by SQL text; see ``cachedStatement(_:)``.
  private var statementCache: [String: SQLiteStatement] = [:]

  /// How many statements the cache holds before it starts over. SQL in receipt-migrate is fixed
  /// text with parameters, so a healthy program never reaches this; SQL built by interpolating
  /// values would, and must not grow the cache without bound.
  private let statementCacheCapacity: Int

  /// The default time a connection waits for another connection's lock before `SQLITE_BUSY`.
  public static let defaultBusyTimeout = Duration.seconds(5)

  /// Opens (and, for `.readWriteCreate`, creates) a database and configures the connection.
  ///
  /// - Parameters:
  ///   - location: A file path, `.memory` or `.temporary`.
  ///   - mode: `.readWriteCreate` (the default) or `.readOnly`.
  ///   - busyTimeout: How long to wait for another connection's lock before failing with
  ///     `SQLITE_BUSY`; rounded down to milliseconds.
  ///   - statementCacheCapacity: How many distinct SQL texts ``cachedStatement(_:)`` keeps.
  ///   - expectedApplicationID: When given, the file must be empty (new) or carry this
  ///     `PRAGMA application_id`. It is checked before the connection writes anything, even the
  ///     switch to WAL, so a wrong path never changes another application's file.
  ///   - pageSizeForNewFiles: The page size of a database created by this open (a power of two
  ///     from 512 to 65536); SQLite ignores it for an existing file, whose page size is fixed.
  /// - Throws: `SQLiteError`: `.cantOpen` when the file or its directory cannot be created or
  ///   opened; `.notADatabase` for a file that is not SQLite, or that is not empty and lacks
  ///   `expectedApplicationID`; `.busy` when another process holds the lock needed to switch a
  ///   new file to WAL for longer than the busy timeout.
  public init(
    location: Location,
    mode: AccessMode = .readWriteCreate,
    busyTimeout: Duration = defaultBusyTimeout,
    statementCacheCapacity: Int = 256,
    expectedApplicationID: Int32? = nil,
    pageSizeForNewFiles: Int? = nil
  ) throws {
    let path = location.displayName
    guard sqlite3_threadsafe() != 0 else {
      throw SQLiteError(
        code: .misuse,
        message: "libsqlite3 was built with SQLITE_THREADSAFE=0, which receipt-migrate cannot use"
          + " safely; install a thread-safe libsqlite3 (Debian's libsqlite3-0 is)",
        sql: nil, databasePath: path)
    }
    if case .path(let filePath) = location, mode == .readWriteCreate {
      try OwnerOnlyFiles.createIfMissing(filePath)
    }

    var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    switch mode {
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    }
    var handle: OpaquePointer?
    let result = sqlite3_open_v2(location.sqliteFileName, &handle, flags, nil)
    guard result == SQLITE_OK, let handle else {
      // A failed open may still allocate a handle, which carries the message and must be closed.
      let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
      sqlite3_close_v2(handle)
      throw SQLiteError(
        code: SQLiteResultCode(rawValue: result),
        message: message ?? String(cString: sqlite3_errstr(result)), sql: nil, databasePath: path)
    }

    self.location = location
    self.mode = mode
    self.connection = SQLiteConnection(handle: handle, path: path)
    self.statementCacheCapacity = max(1, statementCacheCapacity)
    do {
      try configure(
        busyTimeout: busyTimeout, expectedApplicationID: expectedApplicationID,
        pageSizeForNewFiles: pageSizeForNewFiles)
    } catch {
      connection.closeWithoutReporting()
      throw error
    }
  }

  deinit {
    connection.closeWithoutReporting()
  }

  private func configure(
    busyTimeout: Duration, expectedApplicationID: Int32?, pageSizeForNewFiles: Int?
  ) throws {
    let handle = try connection.checkedHandle()
    // First, so that the pragmas below already wait for a lock held by another process.
    let milliseconds =
      busyTimeout.components.seconds * 1000
      + busyTimeout.components.attoseconds / 1_000_000_000_000_000
    sqlite3_busy_timeout(handle, Int32(clamping: max(0, milliseconds)))

    try execute("PRAGMA foreign_keys = ON")
    if let expectedApplicationID,
      let foundID = try foreignApplicationID(expecting: expectedApplicationID)
    {
      throw SQLiteError(
        code: .notADatabase,
        message: foundID == 0
          ? "the file already holds tables but carries no application id"
          : "the file belongs to another application (application_id \(Self.hexadecimal(foundID)))",
        sql: nil, databasePath: connection.path)
    }
    guard mode == .readWriteCreate else {
      return
    }
    if let pageSizeForNewFiles {
      // Must precede the switch to WAL, after which the page size of a new file is fixed.
      try execute("PRAGMA page_size = \(pageSizeForNewFiles)")
    }
    // This pragma reads the file header, so a file that is not SQLite fails here, at open, with
    // SQLITE_NOTADB. (A read-only connection meets the header at its first query.)
    let journalMode = try firstRow("PRAGMA journal_mode = WAL") { try $0.string(at: 0) }
    if case .path = location, journalMode != "wal" {
      throw SQLiteError(
        code: .error,
        message: "the database could not be switched to WAL journal mode (it reports"
          + " '\(journalMode ?? "nothing")'); keep the database on a local file system, not a"
          + " network share",
        sql: "PRAGMA journal_mode = WAL", databasePath: connection.path)
    }
    try execute("PRAGMA synchronous = NORMAL")
  }

  // MARK: - Statements

  /// Runs a script of one or more SQL statements, discarding any rows.
  ///
  /// For schema scripts and pragmas. Statements with values go through ``run(_:binding:)`` so
  /// that values are bound, never spliced into SQL text.
  ///
  /// - Parameters:
  ///   - sql: The script; statements separated by semicolons.
  /// - Throws: `SQLiteError` for the first statement that fails; the ones before it have run.
  public func execute(_ sql: String) throws {
    let handle = try connection.checkedHandle()
    var message: UnsafeMutablePointer<CChar>?
    let result = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard result == SQLITE_OK else {
      throw SQLiteError(
        code: SQLiteResultCode(rawValue: result),
        message: message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(result)),
        sql: sql, databasePath: connection.path)
    }
  }

  /// Prepares a statement that the caller owns; it is not shared with the cache.
  ///
  /// Use it for a statement kept across many runs, or one stepped while the same SQL runs
  /// elsewhere. Keep the database alive while using the statement: closing the database
  /// finalises it.
  ///
  /// - Parameters:
  ///   - sql: Exactly one SQL statement; a trailing semicolon, spaces and comments are fine.
  /// - Returns: The prepared statement.
  /// - Throws: `SQLiteError` when the SQL does not compile, is empty, or holds more than one
  ///   statement (use ``execute(_:)`` for scripts).
  public func prepare(_ sql: String) throws -> SQLiteStatement {
    try makeStatement(sql, persistent: false)
  }

  /// A prepared statement for this SQL from the connection's cache, reset and with cleared
  /// bindings, prepared on first use.
  ///
  /// Preparing compiles SQL, which costs far more than running a simple statement, so repeated
  /// SQL should come from here. The statement is shared: the next request for the same SQL
  /// resets it, so bind and run it before asking for it again. If the cached statement is still
  /// part-way through its rows (the same query nested inside its own loop), a fresh uncached
  /// statement is returned instead, so the outer loop is never disturbed.
  ///
  /// - Parameters:
  ///   - sql: Exactly one SQL statement, written with parameters rather than interpolated values.
  /// - Returns: The statement, ready to bind.
  /// - Throws: `SQLiteError` when the SQL does not compile or the database was closed.
  public func cachedStatement(_ sql: String) throws -> SQLiteStatement {
    if let statement = statementCache[sql] {
      guard !statement.isStepping else {
        return try makeStatement(sql, persistent: false)
      }
      statement.reset()
      statement.clearBindings()
      return statement
    }
    let statement = try makeStatement(sql, persistent: true)
    if statementCache.count >= statementCacheCapacity {
      // Starting over is crude but costs nothing per lookup, unlike tracking recency; statements
      // a caller still holds stay valid, since releasing them here only drops the cache's hold.
      statementCache.removeAll(keepingCapacity: true)
    }
    statementCache[sql] = statement
    return statement
  }

  /// Binds the values to a cached statement and runs it to completion.
  ///
  /// - Parameters:
  ///   - sql: One SQL statement, typically an `INSERT`, `UPDATE` or `DELETE`.
  ///   - values: One value per parameter, in order.
  /// - Throws: `SQLiteError` when preparing, binding or running fails.
  public func run<each Value: SQLiteBindable>(
    _ sql: String, binding values: repeat each Value
  ) throws {
    try cachedStatement(sql, binding: repeat each values).run(binding: repeat each values)
  }

  /// Binds the values to a cached query and calls `body` with each row.
  ///
  /// - Parameters:
  ///   - sql: One SQL query.
  ///   - values: One value per parameter, in order.
  ///   - body: Reads one row; the row is only valid during the call.
  /// - Throws: `SQLiteError` when preparing, binding or stepping fails, or what `body` throws.
  public func forEachRow<each Value: SQLiteBindable>(
    _ sql: String, binding values: repeat each Value, body: (SQLiteRow) throws -> Void
  ) throws {
    try cachedStatement(sql, binding: repeat each values)
      .forEachRow(binding: repeat each values, body: body)
  }

  /// Binds the values to a cached query and decodes its first row.
  ///
  /// - Parameters:
  ///   - sql: One SQL query.
  ///   - values: One value per parameter, in order.
  ///   - decode: Turns the first row into a value.
  /// - Returns: The decoded first row, or `nil` when the query returns no rows.
  /// - Throws: `SQLiteError` when preparing, binding or stepping fails, or what `decode` throws.
  public func firstRow<each Value: SQLiteBindable, Result>(
    _ sql: String, binding values: repeat each Value, decode: (SQLiteRow) throws -> Result
  ) throws -> Result? {
    try cachedStatement(sql, binding: repeat each values)
      .firstRow(binding: repeat each values, decode: decode)
  }

  /// The cached statement for `sql`, checked to take no parameters when no values are given.
  ///
  /// On a statement the caller holds, running with no values means "use the bindings already
  /// set". A statement fresh from the cache has none, so there it can only mean forgotten values,
  /// which would otherwise be written as NULLs.
  private func cachedStatement<each Value: SQLiteBindable>(
    _ sql: String, binding values: repeat each Value
  ) throws -> SQLiteStatement {
    let statement = try cachedStatement(sql)
    var valueCount = 0
    for _ in repeat each values {
      valueCount += 1
    }
    guard valueCount > 0 || statement.parameterCount == 0 else {
      let expected = SQLiteStatement.values(statement.parameterCount)
      throw statement.failure(
        SQLITE_RANGE, message: "the statement takes \(expected) but none were given")
    }
    return statement
  }

  private func makeStatement(_ sql: String, persistent: Bool) throws -> SQLiteStatement {
    let handle = try connection.checkedHandle()
    // SQLITE_PREPARE_PERSISTENT tells SQLite the statement lives long, so it allocates it
    // outside the lookaside pool meant for short-lived objects.
    let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    var statement: OpaquePointer?
    var problem: String?
    let result = sql.withCString { text in
      var tail: UnsafePointer<CChar>?
      let result = sqlite3_prepare_v3(handle, text, -1, flags, &statement, &tail)
      if result == SQLITE_OK, let tail, tail.pointee != 0, Self.holdsStatement(tail, handle) {
        problem = "the text holds more than one statement; run scripts with execute(_:)"
      }
      return result
    }
    guard result == SQLITE_OK else {
      throw connection.error(result, sql: sql)
    }
    guard let statement, problem == nil else {
      sqlite3_finalize(statement)
      throw SQLiteError(
        code: .misuse, message: problem ?? "the text holds no SQL statement", sql: sql,
        databasePath: connection.path)
    }
    return SQLiteStatement(sql: sql, handle: statement, connection: connection)
  }

  /// Whether the rest of a text after its first statement holds another statement, as opposed
  /// to only spaces, semicolons and comments.
  private static func holdsStatement(_ text: UnsafePointer<CChar>, _ handle: OpaquePointer) -> Bool
  {
    var statement: OpaquePointer?
    // Compiling is the only reliable way to tell SQL from comments; a compile error counts as
    // "more SQL", which is what it is.
    let result = sqlite3_prepare_v3(handle, text, -1, 0, &statement, nil)
    defer { sqlite3_finalize(statement) }
    return result != SQLITE_OK || statement != nil
  }

  // MARK: - State

  /// The rowid of the most recent successful `INSERT` on this connection.
  ///
  /// - Throws: `SQLiteError` with `.misuse` when the database was closed.
  public var lastInsertRowID: Int64 {
    get throws {
      sqlite3_last_insert_rowid(try connection.checkedHandle())
    }
  }

  /// The number of rows changed by the most recent `INSERT`, `UPDATE` or `DELETE`.
  ///
  /// - Throws: `SQLiteError` with `.misuse` when the database was closed.
  public var changes: Int {
    get throws {
      Int(sqlite3_changes64(try connection.checkedHandle()))
    }
  }

  /// Whether a transaction is open on this connection.
  ///
  /// - Throws: `SQLiteError` with `.misuse` when the database was closed.
  public var isInTransaction: Bool {
    get throws {
      sqlite3_get_autocommit(try connection.checkedHandle()) == 0
    }
  }

  /// The location as errors name it: the path, `:memory:` or `(temporary)`.
  public var path: String {
    connection.path
  }

  /// The file's `PRAGMA application_id` when it rules the file out as one of `expected`'s.
  ///
  /// Acceptable are a file carrying `expected` and an empty file (no schema objects), which
  /// is new; anything else, including a file with tables but no id, is someone else's.
  ///
  /// - Returns: `nil` when the file is acceptable, otherwise the id found (0 for none).
  func foreignApplicationID(expecting expected: Int32) throws -> Int32? {
    let found = try firstRow("PRAGMA application_id") { try $0.int64(at: 0) }
    let applicationID = Int32(truncatingIfNeeded: found ?? 0)
    if applicationID == expected {
      return nil
    }
    let objects = try firstRow("SELECT count(*) FROM sqlite_schema") { try $0.int64(at: 0) }
    return applicationID == 0 && objects == 0 ? nil : applicationID
  }

  /// An application id as errors print it, such as `0x52634D67`.
  static func hexadecimal(_ applicationID: Int32) -> String {
    let digits = String(UInt32(bitPattern: applicationID), radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
  }

  // MARK: - Closing

  /// Finalises every statement of the connection, cached or held elsewhere, and closes it.
  ///
  /// Closing twice is harmless. After closing, every use of the database or its statements
  /// throws `.misuse`. The last connection to close checkpoints the WAL into the main file.
  ///
  /// - Throws: `SQLiteError` when SQLite cannot close cleanly; the handle is then released as
  ///   soon as SQLite allows.
  public func close() throws {
    statementCache.removeAll()
    try connection.close()
  }
}

@available(*, unavailable, message: "a connection is confined to one thread; open one per thread")
extension SQLiteDatabase: Sendable {}
