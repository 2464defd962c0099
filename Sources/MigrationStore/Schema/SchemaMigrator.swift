/// Brings a database to the latest schema by applying, in order, the migrations it lacks.
///
/// The history lives in the database itself, in a `schema_version` table with one row per
/// applied migration (`version`, `name`, `applied_at` in Unix milliseconds). Each migration runs
/// in its own `IMMEDIATE` transaction together with its `schema_version` row, so a database is
/// always at exactly one version: a failed migration leaves it at the one before.
///
/// Our files carry a mark in the SQLite header, `PRAGMA application_id` =
/// ``receiptMigrateApplicationID``, set in the same transaction as the first migration. Another
/// application's SQLite file, or any file that already holds tables without our mark, is refused
/// before the migrator writes anything, so a mistyped `--db` cannot damage someone's data. Open
/// the connection with `expectedApplicationID: SchemaMigrator.receiptMigrateApplicationID` as
/// well: that refuses such a file before even the switch to WAL. An empty or new file is
/// initialised.
///
/// Two processes migrating the same file at once are safe: each migration re-reads the version
/// after taking the write lock and skips what the other process already applied.
public struct SchemaMigrator: Sendable {
  /// The `PRAGMA application_id` of receipt-migrate databases: `0x52634D67`, the ASCII bytes
  /// "RcMg", which `file(1)` and hex dumps show at offset 68 of the file. It does not collide
  /// with the identifiers registered in SQLite's `magic.txt`.
  public static let receiptMigrateApplicationID: Int32 = 0x5263_4D67

  /// The application id this migrator writes and expects.
  public let applicationID: Int32

  /// The migrations, in version order.
  public let migrations: [SchemaMigration]

  /// Creates a migrator, checking that versions run 1, 2, 3, ... without gaps.
  ///
  /// - Parameters:
  ///   - applicationID: The mark written into and expected from the file's header.
  ///   - migrations: The schema history, oldest first.
  /// - Throws: `SchemaMigrationError.invalidMigrationList` when versions are missing, repeated
  ///   or out of order, or a name is empty.
  public init(
    applicationID: Int32 = receiptMigrateApplicationID, migrations: [SchemaMigration]
  ) throws {
    for (offset, migration) in migrations.enumerated() {
      guard migration.version == offset + 1 else {
        let versions = migrations.map { String($0.version) }.joined(separator: ", ")
        throw SchemaMigrationError.invalidMigrationList(
          reason: "versions must be 1, 2, 3, ... in order without gaps, but are \(versions)")
      }
      guard !migration.name.isEmpty else {
        throw SchemaMigrationError.invalidMigrationList(
          reason: "migration \(migration.version) has an empty name")
      }
    }
    self.applicationID = applicationID
    self.migrations = migrations
  }

  /// The schema version this build brings databases to: the last migration's version.
  public var latestVersion: Int {
    migrations.count
  }

  // MARK: - Reading

  /// The schema version recorded in a database; 0 for an empty, uninitialised file.
  ///
  /// - Parameters:
  ///   - database: The database to inspect; nothing is written.
  /// - Returns: The highest applied migration version.
  /// - Throws: `SchemaMigrationError.notAReceiptMigrateDatabase` for another application's file,
  ///   `.divergentHistory` when recorded names differ from this build's, or `SQLiteError` (for
  ///   example `.notADatabase` for a file that is not SQLite at all).
  public func currentVersion(of database: SQLiteDatabase) throws -> Int {
    if let foundID = try database.foreignApplicationID(expecting: applicationID) {
      throw SchemaMigrationError.notAReceiptMigrateDatabase(
        path: database.path, applicationID: foundID)
    }
    let hasHistory =
      try database.firstRow(
        "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_version'"
      ) { _ in true } ?? false
    guard hasHistory else {
      // An empty file. (Marked but without history cannot come from a committed migration: the
      // mark and the table are written in one transaction.)
      return 0
    }

    var version = 0
    try database.forEachRow("SELECT version, name FROM schema_version ORDER BY version") { row in
      let recorded = try row.int(at: 0)
      let name = try row.string(at: 1)
      if recorded >= 1, recorded <= latestVersion, migrations[recorded - 1].name != name {
        throw SchemaMigrationError.divergentHistory(
          path: database.path, version: recorded, recordedName: name,
          expectedName: migrations[recorded - 1].name)
      }
      version = max(version, recorded)
    }
    return version
  }

  // MARK: - Migrating

  /// Applies every migration the database lacks, each in its own transaction.
  ///
  /// - Parameters:
  ///   - database: A connection opened read-write (read-only is fine when nothing is pending).
  ///   - now: The current time in Unix milliseconds, recorded as each migration's `applied_at`.
  /// - Returns: The versions applied by this call, in order; empty when already up to date.
  /// - Throws: `SchemaMigrationError`: `.newerSchema` for a database from a newer build,
  ///   `.notAReceiptMigrateDatabase`, `.divergentHistory`, `.upgradeNeedsWriteAccess`, or
  ///   `.migrationFailed` wrapping the cause; or `SQLiteError` for failures outside a migration,
  ///   such as another process holding the write lock past the busy timeout.
  @discardableResult
  public func migrate(_ database: SQLiteDatabase, now: () -> Int64) throws -> [Int] {
    let current = try checkedVersion(of: database)
    guard current < latestVersion else {
      return []
    }
    guard database.mode == .readWriteCreate else {
      throw SchemaMigrationError.upgradeNeedsWriteAccess(
        path: database.path, databaseVersion: current, knownVersion: latestVersion)
    }
    var applied: [Int] = []
    for migration in migrations[current...] {
      let didApply = try database.transaction(.immediate) {
        try apply(migration, to: database, at: now())
      }
      if didApply {
        applied.append(migration.version)
      }
    }
    return applied
  }

  /// The database's version, refusing one newer than this build.
  private func checkedVersion(of database: SQLiteDatabase) throws -> Int {
    let version = try currentVersion(of: database)
    guard version <= latestVersion else {
      throw SchemaMigrationError.newerSchema(
        path: database.path, databaseVersion: version, knownVersion: latestVersion)
    }
    return version
  }

  /// Applies one migration inside the caller's write transaction.
  ///
  /// - Returns: `false` when another process applied it first.
  private func apply(
    _ migration: SchemaMigration, to database: SQLiteDatabase, at appliedAt: Int64
  ) throws -> Bool {
    // Read again now that this connection holds the write lock: the version read before the
    // lock may be stale if another process migrated in between.
    let current = try checkedVersion(of: database)
    guard current < migration.version else {
      return false
    }
    if current == 0 {
      // A pragma takes no bound parameters; the value is our own integer constant.
      try database.execute(
        """
        PRAGMA application_id = \(applicationID);
        CREATE TABLE IF NOT EXISTS schema_version (
          version INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          applied_at INTEGER NOT NULL
        ) STRICT;
        """)
    }
    do {
      try migration.apply(database)
    } catch {
      throw SchemaMigrationError.migrationFailed(
        path: database.path, version: migration.version, name: migration.name, underlying: error)
    }
    try database.run(
      "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
      binding: migration.version, migration.name, appliedAt)
    return true
  }
}
