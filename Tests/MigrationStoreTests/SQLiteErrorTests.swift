import MigrationStore
import Testing

@Suite("SQLite errors")
struct SQLiteErrorTests {
  private func makeDatabase() throws -> SQLiteDatabase {
    let database = try SQLiteDatabase(location: .memory)
    try database.execute(
      """
      CREATE TABLE account (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE);
      CREATE TABLE purchase (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL
        REFERENCES account (id), amount INTEGER CHECK (amount >= 0));
      INSERT INTO account VALUES (1, 'a@example.com');
      """)
    return database
  }

  @Test(
    "constraint violations map to their extended codes, names and messages",
    arguments: [
      (
        "INSERT INTO account (email) VALUES ('a@example.com')", SQLiteResultCode.constraintUnique,
        "SQLITE_CONSTRAINT_UNIQUE", "UNIQUE constraint failed: account.email"
      ),
      (
        "INSERT INTO account (id, email) VALUES (1, 'b@example.com')", .constraintPrimaryKey,
        "SQLITE_CONSTRAINT_PRIMARYKEY", "UNIQUE constraint failed: account.id"
      ),
      (
        "INSERT INTO account (email) VALUES (NULL)", .constraintNotNull,
        "SQLITE_CONSTRAINT_NOTNULL", "NOT NULL constraint failed: account.email"
      ),
      (
        "INSERT INTO purchase (account_id, amount) VALUES (99, 1)", .constraintForeignKey,
        "SQLITE_CONSTRAINT_FOREIGNKEY", "FOREIGN KEY constraint failed"
      ),
      (
        "INSERT INTO purchase (account_id, amount) VALUES (1, -5)", .constraintCheck,
        "SQLITE_CONSTRAINT_CHECK", "CHECK constraint failed: amount >= 0"
      ),
    ])
  func constraintViolation(
    sql: String, code: SQLiteResultCode, name: String, message: String
  ) throws {
    let database = try makeDatabase()
    let error = #expect(throws: SQLiteError.self) { try database.run(sql) }
    #expect(error?.code == code)
    #expect(error?.code.primary == .constraint)
    #expect(error?.code.name == name)
    #expect(error?.message == message)
    #expect(error?.sql == sql)
    #expect(error?.databasePath == ":memory:")
    #expect(error?.nextStep == nil)
    #expect(error?.description == "\(name): \(message)\n  database: :memory:\n  sql: \(sql)")
  }

  @Test("a connection waiting for another's write lock gives up after its busy timeout")
  func busy() throws {
    try TemporaryDirectory.with { root in
      let path = root + "/store.sqlite"
      let holder = try SQLiteDatabase(location: .path(path))
      try holder.execute("CREATE TABLE item (name TEXT)")
      let waiter = try SQLiteDatabase(location: .path(path), busyTimeout: .milliseconds(10))

      try holder.transaction(.immediate) {
        try holder.run("INSERT INTO item VALUES (?)", binding: "held")
        let error = #expect(throws: SQLiteError.self) {
          try waiter.transaction(.immediate) {
            try waiter.run("INSERT INTO item VALUES (?)", binding: "blocked")
          }
        }
        #expect(error?.code.primary == .busy)
        #expect(error?.code.name.hasPrefix("SQLITE_BUSY") == true)
        #expect(error?.databasePath == path)
        #expect(
          error?.description.contains(
            "next step: the database is locked by another receipt-migrate process — wait for it"
              + " to finish or use another --db") == true)
        // WAL: the waiting connection can still read the last committed state.
        #expect(try waiter.firstRow("SELECT count(*) FROM item") { try $0.int(at: 0) } == 0)
      }
      try waiter.run("INSERT INTO item VALUES (?)", binding: "after")
      #expect(try waiter.firstRow("SELECT count(*) FROM item") { try $0.int(at: 0) } == 2)
    }
  }

  @Test(
    "result codes carry their C names, and unknown codes still print usefully",
    arguments: [
      (SQLiteResultCode.busy, "SQLITE_BUSY"), (.notADatabase, "SQLITE_NOTADB"),
      (.full, "SQLITE_FULL"), (.ioError, "SQLITE_IOERR"), (.busySnapshot, "SQLITE_BUSY_SNAPSHOT"),
      (.readOnlyDatabaseMoved, "SQLITE_READONLY_DBMOVED"),
      (.cantOpenIsDirectory, "SQLITE_CANTOPEN_ISDIR"),
      (SQLiteResultCode(rawValue: 10 | (33 << 8)), "SQLITE_IOERR_CORRUPTFS"),
      (SQLiteResultCode(rawValue: 19 | (99 << 8)), "SQLITE_CONSTRAINT (extended code 25363)"),
      (SQLiteResultCode(rawValue: 77), "SQLite result code 77"),
    ])
  func names(code: SQLiteResultCode, name: String) {
    #expect(code.name == name)
    #expect(code.description == name)
  }

  @Test("extended codes know their primary family")
  func families() {
    #expect(SQLiteResultCode.constraintUnique.primary == .constraint)
    #expect(SQLiteResultCode.constraintUnique.isExtended)
    #expect(SQLiteResultCode.busySnapshot.primary == .busy)
    #expect(!SQLiteResultCode.busy.isExtended)
  }

  @Test(
    "operators get a next step for the codes they can act on",
    arguments: [
      (SQLiteResultCode.full, "disk full"), (.corrupt, "damaged"),
      (.notADatabase, "not a receipt-migrate database"), (.locked, "locked by another"),
      (.cantOpen, "cannot be opened"), (.readOnly, "cannot be written"),
      (.ioError, "I/O error"), (.permission, "refused access"),
    ])
  func nextSteps(code: SQLiteResultCode, advice: String) {
    let error = SQLiteError(code: code, message: "m", sql: nil, databasePath: "/data/store.sqlite")
    #expect(error.nextStep?.contains(advice) == true)
    #expect(
      error.description.hasPrefix("\(code.name): m\n  database: /data/store.sqlite\n  next step: "))
  }

  @Test("SQL in an error is flattened to one line and truncated")
  func sqlTruncation() throws {
    let long = "SELECT\n    " + String(repeating: "x, ", count: 200) + "y FROM t"
    let error = SQLiteError(code: .error, message: "m", sql: long, databasePath: "p")
    let sql = try #require(error.sql)
    #expect(!sql.contains("\n"))
    #expect(sql.hasPrefix("SELECT x, x, "))
    #expect(sql.count == SQLiteError.maximumSQLLength + 1)
    #expect(sql.hasSuffix("…"))
    let short = SQLiteError(code: .error, message: "m", sql: "SELECT  1", databasePath: "p")
    #expect(short.sql == "SELECT 1")
  }
}
