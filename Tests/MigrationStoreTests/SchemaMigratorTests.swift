import Foundation
import MigrationStore
import Testing

@Suite("Schema migrations")
struct SchemaMigratorTests {
  /// A three-step history: two SQL migrations and one written as code.
  private static let history = [
    SchemaMigration(
      version: 1, name: "create accounts",
      sql: "CREATE TABLE account (id INTEGER PRIMARY KEY, email TEXT NOT NULL) STRICT;"),
    SchemaMigration(
      version: 2, name: "index emails",
      sql: "CREATE UNIQUE INDEX account_email ON account (email);"),
    SchemaMigration(version: 3, name: "lower-case emails") { database in
      try database.execute("ALTER TABLE account ADD COLUMN email_folded TEXT")
      try database.run("UPDATE account SET email_folded = lower(email)")
    },
  ]

  private func migrator(upTo version: Int) throws -> SchemaMigrator {
    try SchemaMigrator(migrations: Array(Self.history.prefix(version)))
  }

  /// A clock that reads 1_000, 2_000, ... so each migration's applied_at is predictable.
  private final class SteppingClock {
    private var now: Int64 = 0
    func read() -> Int64 {
      now += 1_000
      return now
    }
  }

  private func recordedHistory(_ database: SQLiteDatabase) throws -> [String] {
    var rows: [String] = []
    try database.forEachRow("SELECT version, name, applied_at FROM schema_version ORDER BY version")
    {
      rows.append("\(try $0.int(at: 0)) \(try $0.string(at: 1)) \(try $0.int64(at: 2))")
    }
    return rows
  }

  private func applicationID(_ database: SQLiteDatabase) throws -> Int64? {
    try database.firstRow("PRAGMA application_id") { try $0.int64(at: 0) }
  }

  @Test("a new file is marked and migrated to the latest version")
  func freshDatabase() throws {
    try TemporaryDirectory.with { root in
      let database = try SQLiteDatabase(location: .path(root + "/store.sqlite"))
      let migrator = try migrator(upTo: 3)
      #expect(try migrator.currentVersion(of: database) == 0)
      let clock = SteppingClock()
      #expect(try migrator.migrate(database, now: clock.read) == [1, 2, 3])
      #expect(try migrator.currentVersion(of: database) == 3)
      #expect(migrator.latestVersion == 3)
      #expect(try applicationID(database) == 0x5263_4D67)
      #expect(
        try recordedHistory(database) == [
          "1 create accounts 1000", "2 index emails 2000", "3 lower-case emails 3000",
        ])
      try database.run(
        "INSERT INTO account (email, email_folded) VALUES (?, ?)", binding: "A@x", "a@x")
    }
  }

  @Test("an older database gets only the migrations it lacks, and data survives")
  func upgrade() throws {
    try TemporaryDirectory.with { root in
      let path = root + "/store.sqlite"
      let old = try SQLiteDatabase(location: .path(path))
      #expect(try migrator(upTo: 1).migrate(old, now: { 5 }) == [1])
      try old.run("INSERT INTO account (email) VALUES (?)", binding: "Mixed@Example.com")
      try old.close()

      let database = try SQLiteDatabase(location: .path(path))
      let migrator = try migrator(upTo: 3)
      #expect(try migrator.currentVersion(of: database) == 1)
      #expect(try migrator.migrate(database, now: { 9 }) == [2, 3])
      #expect(try migrator.migrate(database, now: { 9 }) == [])
      #expect(
        try database.firstRow("SELECT email_folded FROM account") { try $0.string(at: 0) }
          == "mixed@example.com")
      #expect(
        try recordedHistory(database) == [
          "1 create accounts 5", "2 index emails 9", "3 lower-case emails 9",
        ])
    }
  }

  @Test("a database from a newer build is refused with an upgrade instruction")
  func newerSchema() throws {
    let database = try SQLiteDatabase(location: .memory)
    try migrator(upTo: 3).migrate(database, now: { 1 })
    let older = try migrator(upTo: 2)
    for attempt in [{ _ = try older.migrate(database, now: { 2 }) }] {
      let error = #expect(throws: SchemaMigrationError.self, performing: attempt)
      #expect(
        error?.description
          == ":memory: was written by a newer receipt-migrate (schema 3); this build knows"
          + " schema 2; upgrade receipt-migrate")
    }
    #expect(try older.currentVersion(of: database) == 3)
  }

  @Test("another application's database is refused and left untouched")
  func foreignApplicationID() throws {
    try TemporaryDirectory.with { root in
      let path = root + "/other.sqlite"
      let other = try SQLiteDatabase(location: .path(path))
      try other.execute("PRAGMA application_id = 1196444487; CREATE TABLE layers (x);")  // "GPKG"
      try other.close()
      let before = try Data(contentsOf: URL(fileURLWithPath: path))

      let database = try SQLiteDatabase(location: .path(path))
      let error = #expect(throws: SchemaMigrationError.self) {
        try migrator(upTo: 3).migrate(database, now: { 1 })
      }
      #expect(
        error?.description
          == "\(path) is not a receipt-migrate database: it belongs to another application"
          + " (SQLite application_id 0x47504B47); receipt-migrate will not write to it — check"
          + " the --db path, or choose a new file")
      try database.close()
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
  }

  @Test("a database with tables but no application id is not ours either")
  func unmarkedTables() throws {
    let database = try SQLiteDatabase(location: .memory)
    try database.execute("CREATE TABLE somebody_elses (x)")
    let error = #expect(throws: SchemaMigrationError.self) {
      try migrator(upTo: 1).currentVersion(of: database)
    }
    #expect(error?.description.contains("it already holds tables but was not created by") == true)
    #expect(try applicationID(database) == 0)
  }

  @Test("a failing migration is rolled back and the database stays at the version before")
  func failingMigration() throws {
    let database = try SQLiteDatabase(location: .memory)
    let broken = try SchemaMigrator(migrations: [
      Self.history[0],
      SchemaMigration(
        version: 2, name: "half done",
        sql: "CREATE TABLE extra (x); INSERT INTO missing VALUES (1);"),
    ])
    let error = #expect(throws: SchemaMigrationError.self) {
      try broken.migrate(database, now: { 1 })
    }
    let description = try #require(error?.description)
    #expect(
      description.hasPrefix(
        "schema migration 2 ('half done') failed on :memory: and was rolled back; the database"
          + " is unchanged by it and stays at schema 1. Cause:\nSQLITE_ERROR: no such table:"
          + " missing"))
    #expect(try broken.currentVersion(of: database) == 1)
    #expect(
      try database.firstRow("SELECT count(*) FROM sqlite_schema WHERE name = 'extra'") {
        try $0.int(at: 0)
      } == 0)
  }

  @Test("a first migration that fails leaves the file unmarked, so it can be retried")
  func failingFirstMigration() throws {
    let database = try SQLiteDatabase(location: .memory)
    let broken = try SchemaMigrator(migrations: [
      SchemaMigration(version: 1, name: "broken", sql: "CREATE TABLE (")
    ])
    #expect(throws: SchemaMigrationError.self) { try broken.migrate(database, now: { 1 }) }
    #expect(try applicationID(database) == 0)
    #expect(try migrator(upTo: 1).migrate(database, now: { 2 }) == [1])
  }

  @Test("a history recorded under different names is reported as diverged")
  func divergentHistory() throws {
    let database = try SQLiteDatabase(location: .memory)
    try migrator(upTo: 2).migrate(database, now: { 1 })
    let otherBranch = try SchemaMigrator(migrations: [
      Self.history[0], SchemaMigration(version: 2, name: "something else", sql: "SELECT 1;"),
    ])
    let error = #expect(throws: SchemaMigrationError.self) {
      try otherBranch.migrate(database, now: { 2 })
    }
    #expect(error?.description.contains("records schema migration 2 as 'index emails'") == true)
  }

  @Test("a read-only connection can be inspected but not upgraded")
  func readOnly() throws {
    try TemporaryDirectory.with { root in
      let path = root + "/store.sqlite"
      try migrator(upTo: 1).migrate(try SQLiteDatabase(location: .path(path)), now: { 1 })
      let reader = try SQLiteDatabase(location: .path(path), mode: .readOnly)
      #expect(try migrator(upTo: 1).migrate(reader, now: { 2 }) == [])
      let error = #expect(throws: SchemaMigrationError.self) {
        try migrator(upTo: 2).migrate(reader, now: { 2 })
      }
      #expect(error?.description.contains("is at schema 1 and this build needs schema 2") == true)
    }
  }

  @Test("malformed migration lists are rejected", arguments: [[2], [1, 3], [1, 1], [1, 2, 2]])
  func invalidLists(versions: [Int]) {
    let migrations = versions.map { SchemaMigration(version: $0, name: "m\($0)", sql: "") }
    let error = #expect(throws: SchemaMigrationError.self) {
      try SchemaMigrator(migrations: migrations)
    }
    #expect(error?.description.contains("versions must be 1, 2, 3") == true)
  }

  @Test("an empty migration name is rejected")
  func emptyName() {
    #expect(throws: SchemaMigrationError.self) {
      try SchemaMigrator(migrations: [SchemaMigration(version: 1, name: "", sql: "")])
    }
  }

  @Test("a migrator with no migrations leaves a new file at version 0")
  func emptyHistory() throws {
    let database = try SQLiteDatabase(location: .memory)
    let migrator = try SchemaMigrator(migrations: [])
    #expect(try migrator.migrate(database, now: { 1 }) == [])
    #expect(try migrator.currentVersion(of: database) == 0)
  }
}
