/// Why a database could not be brought to the schema this build of receipt-migrate knows.
public enum SchemaMigrationError: Error, Sendable, CustomStringConvertible {
  /// The file is a SQLite database, but not one of ours: another application's mark, or tables
  /// without our mark. The migrator writes nothing to it.
  case notAReceiptMigrateDatabase(path: String, applicationID: Int32)

  /// The database records a schema version later than any migration this build has.
  case newerSchema(path: String, databaseVersion: Int, knownVersion: Int)

  /// The database recorded a migration under a different name than this build's migration of
  /// the same version: it was written by a diverging (development) build.
  case divergentHistory(path: String, version: Int, recordedName: String, expectedName: String)

  /// The database needs migrations, but the connection is read-only.
  case upgradeNeedsWriteAccess(path: String, databaseVersion: Int, knownVersion: Int)

  /// A migration threw; its transaction was rolled back.
  case migrationFailed(path: String, version: Int, name: String, underlying: any Error)

  /// The list of migrations given to the migrator is malformed: a programming error.
  case invalidMigrationList(reason: String)

  /// What went wrong, about which file, and what to do next.
  public var description: String {
    switch self {
    case .notAReceiptMigrateDatabase(let path, let applicationID):
      let what =
        applicationID == 0
        ? "it already holds tables but was not created by receipt-migrate"
        : "it belongs to another application (SQLite application_id "
          + "\(SQLiteDatabase.hexadecimal(applicationID)))"
      return "\(path) is not a receipt-migrate database: \(what); receipt-migrate will not"
        + " write to it — check the --db path, or choose a new file"
    case .newerSchema(let path, let databaseVersion, let knownVersion):
      return "\(path) was written by a newer receipt-migrate (schema \(databaseVersion)); this"
        + " build knows schema \(knownVersion); upgrade receipt-migrate"
    case .divergentHistory(let path, let version, let recordedName, let expectedName):
      return "\(path) records schema migration \(version) as '\(recordedName)', but this build's"
        + " migration \(version) is '\(expectedName)': the database was written by a different"
        + " build of receipt-migrate; use that build, or start over with a new --db"
    case .upgradeNeedsWriteAccess(let path, let databaseVersion, let knownVersion):
      return "\(path) is at schema \(databaseVersion) and this build needs schema"
        + " \(knownVersion), but it was opened read-only; run a command that writes to the"
        + " database once to upgrade it"
    case .migrationFailed(let path, let version, let name, let underlying):
      return "schema migration \(version) ('\(name)') failed on \(path) and was rolled back; the"
        + " database is unchanged by it and stays at schema \(version - 1). Cause:\n\(underlying)"
    case .invalidMigrationList(let reason):
      return "the schema migration list is invalid: \(reason) (a bug in receipt-migrate)"
    }
  }
}
