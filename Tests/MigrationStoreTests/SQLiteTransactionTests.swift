import MigrationStore
import Testing

@Suite("Transactions and savepoints")
struct SQLiteTransactionTests {
  private struct Failure: Error, Equatable {
    let reason: String
  }

  private func makeDatabase(_ location: SQLiteDatabase.Location) throws -> SQLiteDatabase {
    let database = try SQLiteDatabase(location: location)
    try database.execute("CREATE TABLE IF NOT EXISTS item (name TEXT PRIMARY KEY)")
    return database
  }

  private func names(_ database: SQLiteDatabase) throws -> [String] {
    var names: [String] = []
    try database.forEachRow("SELECT name FROM item ORDER BY name") {
      names.append(try $0.string(at: 0))
    }
    return names
  }

  @Test(
    "a transaction that returns commits, visibly to another connection",
    arguments: [
      SQLiteDatabase.TransactionKind.deferred, .immediate, .exclusive,
    ])
  func commit(kind: SQLiteDatabase.TransactionKind) throws {
    try TemporaryDirectory.with { root in
      let writer = try makeDatabase(.path(root + "/store.sqlite"))
      let reader = try makeDatabase(.path(root + "/store.sqlite"))
      let result = try writer.transaction(kind) {
        try writer.run("INSERT INTO item VALUES (?)", binding: "a")
        #expect(try writer.isInTransaction)
        #expect(try names(reader) == [])  // not yet committed
        return 42
      }
      #expect(result == 42)
      #expect(try !writer.isInTransaction)
      #expect(try names(reader) == ["a"])
    }
  }

  @Test("a transaction that throws rolls back and rethrows the same error")
  func rollback() throws {
    let database = try makeDatabase(.memory)
    let error = #expect(throws: Failure.self) {
      try database.transaction(.immediate) {
        try database.run("INSERT INTO item VALUES (?)", binding: "a")
        throw Failure(reason: "changed my mind")
      }
    }
    #expect(error == Failure(reason: "changed my mind"))
    #expect(try names(database) == [])
    #expect(try !database.isInTransaction)
  }

  @Test("a failing nested transaction undoes only its own work")
  func nestedRollback() throws {
    let database = try makeDatabase(.memory)
    try database.transaction(.immediate) {
      try database.run("INSERT INTO item VALUES (?)", binding: "outer-before")
      #expect(throws: Failure.self) {
        try database.transaction {
          try database.run("INSERT INTO item VALUES (?)", binding: "inner")
          try database.transaction {
            try database.run("INSERT INTO item VALUES (?)", binding: "innermost")
          }
          throw Failure(reason: "inner fails")
        }
      }
      #expect(try database.isInTransaction)
      try database.run("INSERT INTO item VALUES (?)", binding: "outer-after")
    }
    #expect(try names(database) == ["outer-after", "outer-before"])
  }

  @Test("a middle savepoint failing keeps the outer work and drops the inner work")
  func middleOfThreeLevels() throws {
    let database = try makeDatabase(.memory)
    try database.transaction {
      try database.run("INSERT INTO item VALUES (?)", binding: "level-1")
      do {
        try database.transaction {
          try database.run("INSERT INTO item VALUES (?)", binding: "level-2")
          try database.transaction {
            try database.run("INSERT INTO item VALUES (?)", binding: "level-3")
          }
          // A constraint violation inside the savepoint: SQLite fails the statement only.
          try database.run("INSERT INTO item VALUES (?)", binding: "level-1")
        }
        Issue.record("the duplicate insert should have thrown")
      } catch let error as SQLiteError {
        #expect(error.code == .constraintPrimaryKey)
      }
    }
    #expect(try names(database) == ["level-1"])
  }

  @Test("nested transactions that succeed all commit with the outer one")
  func nestedCommit() throws {
    let database = try makeDatabase(.memory)
    try database.transaction(.immediate) {
      try database.run("INSERT INTO item VALUES (?)", binding: "a")
      try database.transaction(.exclusive) {  // kind ignored for a savepoint
        try database.run("INSERT INTO item VALUES (?)", binding: "b")
      }
    }
    #expect(try names(database) == ["a", "b"])
  }

  @Test("a transaction inside one begun by hand becomes a savepoint")
  func insideManualTransaction() throws {
    let database = try makeDatabase(.memory)
    try database.execute("BEGIN")
    #expect(throws: Failure.self) {
      try database.transaction {
        try database.run("INSERT INTO item VALUES (?)", binding: "x")
        throw Failure(reason: "undo x")
      }
    }
    #expect(try database.isInTransaction)
    try database.execute("COMMIT")
    #expect(try names(database) == [])
  }
}
