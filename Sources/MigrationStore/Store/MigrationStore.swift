/// The migration's state: one SQLite file holding every stage's inputs and results, so each
/// stage can be re-run alone, a run can be killed and resumed, and reports can be regenerated
/// without the network.
///
/// A store is one connection and is deliberately not `Sendable`: use it from one thread or
/// actor. Opening a file written by a newer receipt-migrate, or a SQLite file that is not a
/// receipt-migrate store, is refused with a clear error.
public final class MigrationStore {
  /// The schema version this build writes.
  public static var schemaVersion: Int { migrator.latestVersion }

  /// Every schema migration of the store, oldest first: what a tool or a test applies in part to
  /// make a store of an older version.
  public static var migrations: [SchemaMigration] { migrator.migrations }

  /// Where the store lives unless `--db` says otherwise, relative to the working directory.
  public static let defaultPath = ".receipt-migrate/state.sqlite"

  /// Every schema migration, in order.
  static let migrator: SchemaMigrator = {
    do {
      return try SchemaMigrator(migrations: [
        SchemaV1.migration, SchemaV2.migration, SchemaV3.migration, SchemaV4.migration,
        SchemaV5.migration, SchemaV6.migration, SchemaV7.migration,
        SchemaV8.migration,
        SchemaV9.migration,
        SchemaV10.migration,
        SchemaV11.migration,
        SchemaV12.migration,
        SchemaV13.migration,
        SchemaV14.migration,
        SchemaV15.migration,
        SchemaV16.migration,
      ])
    } catch {
      // The list is a constant of this build; an invalid one is a programming error that every
      // test run would hit at once.
      fatalError("invalid schema migration list: \(error)")
    }
  }()

  /// The page size of new store files: legacy records are tens of kilobytes each, and 16 KiB
  /// pages write them about 40 % faster than SQLite's default 4 KiB (measured with
  /// `bench ingest`); larger pages were slower again.
  static let pageSize = 16384

  /// The underlying connection, for the store's own extensions.
  let database: SQLiteDatabase

  /// The file's path.
  public var path: String { database.path }

  /// Opens (creating if needed, mode 0600) and migrates a store.
  ///
  /// - Parameters:
  ///   - path: the SQLite file; missing parent directories are created (mode 0700).
  ///   - readOnly: open without write access (reports, `explain`); a store that needs an
  ///     upgrade cannot be opened read-only.
  ///   - now: the clock used to date applied migrations (Unix ms).
  /// - Throws: `SQLiteError` or `SchemaMigrationError` with a message for operators.
  public init(path: String, readOnly: Bool = false, now: () -> Int64) throws {
    database = try SQLiteDatabase(
      location: .path(path), mode: readOnly ? .readOnly : .readWriteCreate,
      expectedApplicationID: SchemaMigrator.receiptMigrateApplicationID,
      pageSizeForNewFiles: Self.pageSize)
    _ = try Self.migrator.migrate(database, now: now)
  }

  /// An in-memory store, for tests.
  ///
  /// - Parameter now: the clock used to date applied migrations.
  /// - Throws: `SQLiteError` when SQLite cannot open it.
  public init(inMemoryWithClock now: () -> Int64) throws {
    database = try SQLiteDatabase(location: .memory)
    _ = try Self.migrator.migrate(database, now: now)
  }

  /// Runs `body` in one write transaction: everything or nothing is stored.
  ///
  /// - Parameter body: the writes.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws (after rolling back), or `SQLiteError`.
  public func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result {
    try database.transaction(.immediate, body)
  }

  /// Runs `body` in one read transaction: every statement in it reads the same snapshot of the
  /// file, and the file's locks are taken once for all of them instead of once per statement
  /// (in WAL mode each statement outside a transaction takes and releases a read lock of its
  /// own — several system calls each). Inside another transaction it simply runs.
  ///
  /// - Parameter body: the reads.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws, or `SQLiteError`.
  public func readTransaction<Result>(_ body: () throws -> Result) throws -> Result {
    try database.transaction(.deferred, body)
  }

  /// Prepares the connection for a long run of large writes: checkpoints the write-ahead log
  /// every 64 MiB instead of every 4 MiB, and keeps more pages in memory.
  ///
  /// - Throws: `SQLiteError`.
  public func beginBulkWrites() throws {
    try database.execute(
      "PRAGMA wal_autocheckpoint = \(64 * 1024 * 1024 / Self.pageSize); PRAGMA cache_size = -16384")
  }

  /// Ends a run of large writes: folds the write-ahead log into the database file and restores
  /// the usual checkpoint interval.
  ///
  /// - Throws: `SQLiteError`.
  public func endBulkWrites() throws {
    try database.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA wal_autocheckpoint = 1000")
  }

  /// Closes the file; the store cannot be used afterwards.
  ///
  /// - Throws: `SQLiteError` when SQLite reports a problem closing.
  public func close() throws {
    try database.close()
  }
}

extension MigrationStore {
  /// A second, read-only connection to the same file, for reading on another thread while this
  /// one writes (in WAL mode neither waits for the other); `nil` for a store in memory, which has
  /// no second connection, and while this connection is inside a transaction, whose writes a
  /// second connection would not see. The caller closes it.
  ///
  /// - Returns: the connection, or `nil`.
  /// - Throws: `SQLiteError`, or a schema error.
  public func openReader() throws -> MigrationStore? {
    guard case .path(let path) = database.location, !(try database.isInTransaction) else {
      return nil
    }
    return try MigrationStore(path: path, readOnly: true, now: { 0 })
  }
}
