/// One step of the store's schema history: a version number, a name and the change itself.
///
/// Versions start at 1 and go up by one. A migration, once released, is never edited or
/// renamed: databases in the field record each applied version with its name, and a mismatch
/// is reported as a diverged history. Fix a mistake with a new migration.
public struct SchemaMigration: Sendable {
  /// The schema version this migration brings the database to.
  public let version: Int

  /// A short name saying what the migration does, recorded in `schema_version`.
  public let name: String

  /// Applies the change; runs inside the migration's transaction.
  let apply: @Sendable (SQLiteDatabase) throws -> Void

  /// A migration written as an SQL script.
  ///
  /// - Parameters:
  ///   - version: The version the script brings the database to.
  ///   - name: What the migration does, such as `"create accounts"`.
  ///   - sql: The script, run with `SQLiteDatabase.execute(_:)`; no `BEGIN` or `COMMIT`.
  public init(version: Int, name: String, sql: String) {
    self.init(version: version, name: name) { database in
      try database.execute(sql)
    }
  }

  /// A migration written as code, for changes SQL alone cannot express, such as rewriting
  /// stored values row by row.
  ///
  /// - Parameters:
  ///   - version: The version the closure brings the database to.
  ///   - name: What the migration does.
  ///   - apply: The change; it runs inside the migration's transaction and must not begin or
  ///     commit one of its own (nested `transaction` calls become savepoints, which is fine).
  public init(
    version: Int, name: String, apply: @escaping @Sendable (SQLiteDatabase) throws -> Void
  ) {
    self.version = version
    self.name = name
    self.apply = apply
  }
}
