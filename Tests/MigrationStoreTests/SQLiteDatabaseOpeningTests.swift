import Foundation
import MigrationStore
import Testing

@Suite("Opening a SQLite database")
struct SQLiteDatabaseOpeningTests {
  @Test("a new file is 0600 in new 0700 directories, and so are its -wal and -shm files")
  func newFileIsOwnerOnly() throws {
    try TemporaryDirectory.with { root in
      let path = root + "/outer/inner/store.sqlite"
      let database = try SQLiteDatabase(location: .path(path))
      try database.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);")

      #expect(try TemporaryDirectory.mode(of: root + "/outer") == 0o700)
      #expect(try TemporaryDirectory.mode(of: root + "/outer/inner") == 0o700)
      #expect(try TemporaryDirectory.mode(of: path) == 0o600)
      // The connection is still open, so the WAL and shared-memory files exist.
      #expect(try TemporaryDirectory.mode(of: path + "-wal") == 0o600)
      #expect(try TemporaryDirectory.mode(of: path + "-shm") == 0o600)
      try database.close()
    }
  }

  @Test("an existing file keeps the mode its owner gave it")
  func existingFileKeepsItsMode() throws {
    try TemporaryDirectory.with { root in
      let path = root + "/shared.sqlite"
      #expect(FileManager.default.createFile(atPath: path, contents: nil))
      try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
      _ = try SQLiteDatabase(location: .path(path))
      #expect(try TemporaryDirectory.mode(of: path) == 0o640)
    }
  }

  @Test("a parent path that is a regular file gives a cantOpen error naming it")
  func parentIsAFile() throws {
    try TemporaryDirectory.with { root in
      #expect(FileManager.default.createFile(atPath: root + "/plain", contents: Data("x".utf8)))
      let error = #expect(throws: SQLiteError.self) {
        try SQLiteDatabase(location: .path(root + "/plain/store.sqlite"))
      }
      #expect(error?.code == .cantOpen)
      #expect(error?.message.contains("/plain exists but is not a directory") == true)
      #expect(error?.databasePath == root + "/plain/store.sqlite")
    }
  }

  @Test("a file connection runs in WAL mode with NORMAL sync, foreign keys and a busy timeout")
  func connectionPragmas() throws {
    try TemporaryDirectory.with { root in
      let database = try SQLiteDatabase(location: .path(root + "/store.sqlite"))
      #expect(try textPragma("journal_mode", database) == "wal")
      #expect(try integerPragma("synchronous", database) == 1)  // NORMAL
      #expect(try integerPragma("foreign_keys", database) == 1)
      #expect(try integerPragma("busy_timeout", database) == 5000)
    }
  }

  @Test("the busy timeout is configurable, in milliseconds")
  func configurableBusyTimeout() throws {
    let database = try SQLiteDatabase(location: .memory, busyTimeout: .milliseconds(250))
    #expect(try integerPragma("busy_timeout", database) == 250)
  }

  @Test(
    "in-memory and temporary databases work and are private",
    arguments: [
      SQLiteDatabase.Location.memory, .temporary,
    ])
  func privateDatabases(location: SQLiteDatabase.Location) throws {
    let first = try SQLiteDatabase(location: location)
    try first.execute("CREATE TABLE t (x INTEGER)")
    try first.run("INSERT INTO t VALUES (?)", binding: 7)
    #expect(try first.firstRow("SELECT x FROM t") { try $0.int64(at: 0) } == 7)
    // A second connection to the "same" location is a different, empty database.
    let second = try SQLiteDatabase(location: location)
    #expect(try second.firstRow("SELECT count(*) FROM sqlite_schema") { try $0.int(at: 0) } == 0)
  }

  @Test("read-only: a missing file is not created, and writes are refused")
  func readOnly() throws {
    try TemporaryDirectory.with { root in
      let missing = root + "/missing/store.sqlite"
      let error = #expect(throws: SQLiteError.self) {
        try SQLiteDatabase(location: .path(missing), mode: .readOnly)
      }
      #expect(error?.code.primary == .cantOpen)
      #expect(!FileManager.default.fileExists(atPath: root + "/missing"))

      let path = root + "/store.sqlite"
      let writer = try SQLiteDatabase(location: .path(path))
      try writer.execute("CREATE TABLE t (x INTEGER)")
      let reader = try SQLiteDatabase(location: .path(path), mode: .readOnly)
      #expect(try reader.firstRow("SELECT count(*) FROM t") { try $0.int(at: 0) } == 0)
      let refusal = #expect(throws: SQLiteError.self) {
        try reader.run("INSERT INTO t VALUES (1)")
      }
      #expect(refusal?.code.primary == .readOnly)
      #expect(refusal?.description.contains("next step: the database cannot be written") == true)
    }
  }

  @Test("a file that is not SQLite is refused at open and left untouched")
  func notSQLite() throws {
    try TemporaryDirectory.with { root in
      let path = root + "/notes.txt"
      let contents = Data(
        String(
          repeating: "these are not the pages you are looking for\n",
          count: 100
        ).utf8)
      #expect(FileManager.default.createFile(atPath: path, contents: contents))
      let error = #expect(throws: SQLiteError.self) {
        try SQLiteDatabase(location: .path(path))
      }
      #expect(error?.code == .notADatabase)
      #expect(error?.description.contains("not a receipt-migrate database") == true)
      #expect(FileManager.default.contents(atPath: path) == contents)
    }
  }

  @Test("another application's database is refused before anything is written to it")
  func foreignApplicationID() throws {
    try TemporaryDirectory.with { root in
      let path = root + "/other.sqlite"
      let other = try SQLiteDatabase(location: .path(path))
      try other.execute(
        "PRAGMA journal_mode = DELETE; PRAGMA application_id = 42; CREATE TABLE mine (x);")
      try other.close()
      let before = FileManager.default.contents(atPath: path)

      let error = #expect(throws: SQLiteError.self) {
        try SQLiteDatabase(
          location: .path(path), expectedApplicationID: 0x5263_4D67)
      }
      #expect(error?.code == .notADatabase)
      #expect(error?.message.contains("application_id 0x0000002A") == true)
      #expect(FileManager.default.contents(atPath: path) == before)
      #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }
  }

  @Test("a new or empty file passes the application id check")
  func expectedApplicationIDOnNewFile() throws {
    try TemporaryDirectory.with { root in
      let database = try SQLiteDatabase(
        location: .path(root + "/new.sqlite"), expectedApplicationID: 7)
      #expect(try textPragma("journal_mode", database) == "wal")
    }
  }

  @Test("after close, the database and every statement refuse to work, and closing again is fine")
  func closing() throws {
    let database = try SQLiteDatabase(location: .memory)
    try database.execute("CREATE TABLE t (x INTEGER)")
    let owned = try database.prepare("INSERT INTO t VALUES (?)")
    let cached = try database.cachedStatement("SELECT x FROM t")
    try database.close()
    try database.close()

    for attempt in [
      { try owned.run(binding: 1) }, { _ = try cached.step() },
      {
        try database.execute("SELECT 1")
      },
    ] {
      let error = #expect(throws: SQLiteError.self, performing: attempt)
      #expect(error?.code == .misuse)
      #expect(error?.message.contains("connection was closed") == true)
    }
    #expect(throws: SQLiteError.self) { try database.lastInsertRowID }
  }

  private func textPragma(_ name: String, _ database: SQLiteDatabase) throws -> String? {
    try database.firstRow("PRAGMA \(name)") { try $0.string(at: 0) }
  }

  private func integerPragma(_ name: String, _ database: SQLiteDatabase) throws -> Int64? {
    try database.firstRow("PRAGMA \(name)") { try $0.int64(at: 0) }
  }
}
