import MigrationStore
import Testing

@Suite("Statements, the statement cache and scripts")
struct SQLiteStatementTests {
  private func makeDatabase(cacheCapacity: Int = 256) throws -> SQLiteDatabase {
    let database = try SQLiteDatabase(location: .memory, statementCacheCapacity: cacheCapacity)
    try database.execute(
      """
      CREATE TABLE account (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      INSERT INTO account (id, name) VALUES (1, 'one'), (2, 'two'), (3, 'three');
      """)
    return database
  }

  @Test("the cache hands out the same statement for the same SQL, reset and cleared")
  func cacheReuse() throws {
    let database = try makeDatabase()
    let sql = "SELECT name FROM account WHERE id = ?"
    let first = try database.cachedStatement(sql)
    try first.bind(2, at: 1)
    #expect(try first.step().map { try $0.string(at: 0) } == "two")
    #expect(try first.step() == nil)

    let again = try database.cachedStatement(sql)
    #expect(again === first)
    // The binding was cleared on the way out of the cache: a NULL id matches nothing.
    #expect(try again.step() == nil)
    #expect(try database.cachedStatement("SELECT name FROM account") !== first)
  }

  @Test("a cached statement still part-way through its rows is not handed out again")
  func cacheSkipsSteppingStatement() throws {
    let database = try makeDatabase()
    let sql = "SELECT id FROM account ORDER BY id"
    let first = try database.cachedStatement(sql)
    let row = try #require(try first.step())
    let second = try database.cachedStatement(sql)
    #expect(second !== first)
    #expect(try second.firstRow { try $0.int64(at: 0) } == 1)
    // The first statement was not disturbed.
    #expect(try row.int64(at: 0) == 1)
    #expect(try first.step().map { try $0.int64(at: 0) } == 2)
    first.reset()
    #expect(try database.cachedStatement(sql) === first)
  }

  @Test("a cached query nested inside its own loop gets a separate statement")
  func nestedSameQuery() throws {
    let database = try makeDatabase()
    let sql = "SELECT id FROM account WHERE id >= ? ORDER BY id"
    var pairs: [[Int64]] = []
    try database.forEachRow(sql, binding: 2) { outer in
      let outerID = try outer.int64(at: 0)
      try database.forEachRow(sql, binding: outerID) { inner in
        pairs.append([outerID, try inner.int64(at: 0)])
      }
    }
    #expect(pairs == [[2, 2], [2, 3], [3, 3]])
  }

  @Test("a full cache starts over, and statements callers hold keep working")
  func cacheCapacity() throws {
    let database = try makeDatabase(cacheCapacity: 2)
    let held = try database.cachedStatement("SELECT name FROM account WHERE id = ?")
    for id in 1...3 {
      _ = try database.cachedStatement("SELECT \(id)")
    }
    #expect(try held.firstRow(binding: 3) { try $0.string(at: 0) } == "three")
    #expect(try database.cachedStatement("SELECT name FROM account WHERE id = ?") !== held)
  }

  @Test("forEachRow visits every row, and firstRow only the first")
  func rowIteration() throws {
    let database = try makeDatabase()
    var names: [String] = []
    try database.forEachRow("SELECT name FROM account ORDER BY id") {
      names.append(try $0.string(at: 0))
    }
    #expect(names == ["one", "two", "three"])
    #expect(
      try database.firstRow("SELECT name FROM account ORDER BY id DESC") { try $0.string(at: 0) }
        == "three")
    #expect(
      try database.firstRow("SELECT name FROM account WHERE id = ?", binding: 99) { _ in 1 } == nil)
  }

  @Test("an error thrown by the row body ends the iteration and leaves the statement reusable")
  func bodyErrorResets() throws {
    struct Stop: Error {}
    let database = try makeDatabase()
    let statement = try database.prepare("SELECT id FROM account ORDER BY id")
    var seen: [Int64] = []
    #expect(throws: Stop.self) {
      try statement.forEachRow { row in
        seen.append(try row.int64(at: 0))
        throw Stop()
      }
    }
    #expect(seen == [1])
    #expect(try statement.firstRow { try $0.int64(at: 0) } == 1)
  }

  @Test("statements report their shape")
  func shape() throws {
    let database = try makeDatabase()
    let statement = try database.prepare("SELECT id, name AS label FROM account WHERE id > ?")
    #expect(statement.parameterCount == 1)
    #expect(statement.columnCount == 2)
    #expect(statement.columnName(at: 1) == "label")
    #expect(statement.columnName(at: 2) == nil)
    #expect(statement.sql == "SELECT id, name AS label FROM account WHERE id > ?")
  }

  @Test("prepare takes exactly one statement; trailing semicolons and comments are fine")
  func oneStatementOnly() throws {
    let database = try makeDatabase()
    _ = try database.prepare("SELECT 1;  -- trailing comment\n")
    let two = #expect(throws: SQLiteError.self) { try database.prepare("SELECT 1; SELECT 2") }
    #expect(two?.code == .misuse)
    #expect(two?.message.contains("more than one statement") == true)
    let none = #expect(throws: SQLiteError.self) { try database.prepare("  -- nothing\n") }
    #expect(none?.message == "the text holds no SQL statement")
    let broken = #expect(throws: SQLiteError.self) { try database.prepare("SELEC 1") }
    #expect(broken?.code == .error)
    #expect(broken?.message.contains("syntax error") == true)
  }

  @Test("execute runs a whole script and reports the failing statement's error")
  func scripts() throws {
    let database = try makeDatabase()
    try database.execute(
      "INSERT INTO account VALUES (4, 'four'); INSERT INTO account VALUES (5, 'five');")
    #expect(try database.firstRow("SELECT count(*) FROM account") { try $0.int(at: 0) } == 5)
    let error = #expect(throws: SQLiteError.self) {
      try database.execute("INSERT INTO account VALUES (6, 'six'); SELECT * FROM missing;")
    }
    #expect(error?.message == "no such table: missing")
    #expect(error?.sql == "INSERT INTO account VALUES (6, 'six'); SELECT * FROM missing;")
  }

  @Test("lastInsertRowID and changes describe the latest write")
  func writeResults() throws {
    let database = try makeDatabase()
    try database.run("INSERT INTO account (name) VALUES (?)", binding: "four")
    #expect(try database.lastInsertRowID == 4)
    #expect(try database.changes == 1)
    try database.run("UPDATE account SET name = upper(name) WHERE id <= ?", binding: 3)
    #expect(try database.changes == 3)
  }

  @Test("run skips any rows a statement returns and completes it")
  func runCompletesStatements() throws {
    let database = try makeDatabase()
    try database.run("DELETE FROM account WHERE id > ? RETURNING id", binding: 1)
    #expect(try database.firstRow("SELECT count(*) FROM account") { try $0.int(at: 0) } == 1)
  }
}
