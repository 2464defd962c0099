import MigrationStore

/// Takes a store file back to an earlier schema version, for tests of an upgrade: undoes what
/// each later migration changed (newest first) and forgets its version row. The store's own
/// migrations then bring it forward again when it is opened.
enum SchemaRollback {
  /// What undoes each version, by version.
  static let undo: [Int: String] = [
    // Schema 12 rewrote stored responses without `latest_receipt`; no table changed.
    12: "",
    11: """
    DROP TABLE recipe_settings; DROP INDEX runs_by_start;
    ALTER TABLE runs DROP COLUMN command; ALTER TABLE runs DROP COLUMN command_line;
    ALTER TABLE runs DROP COLUMN recipe_key; ALTER TABLE runs DROP COLUMN reported_ms;
    ALTER TABLE runs DROP COLUMN report_directory; ALTER TABLE runs DROP COLUMN ended_ms;
    ALTER TABLE runs DROP COLUMN exit_code;
    """,
    10: "DROP TABLE products_seen;",
  ]

  /// Takes the store at `path` back to `version`.
  ///
  /// - Parameters:
  ///   - path: the store file, closed.
  ///   - version: the version to go back to (9 or later).
  ///   - then: SQL run on the file afterwards (rows as that version held them).
  static func store(at path: String, to version: Int, then: String = "") throws {
    let database = try SQLiteDatabase(location: .path(path))
    defer { try? database.close() }
    var sql = ""
    for undone in stride(from: MigrationStore.schemaVersion, to: version, by: -1) {
      guard let step = undo[undone] else {
        fatalError("SchemaRollback does not know how to undo schema \(undone); add it")
      }
      sql += step + "\nDELETE FROM schema_version WHERE version = \(undone);\n"
    }
    try database.execute(sql + then)
  }
}
