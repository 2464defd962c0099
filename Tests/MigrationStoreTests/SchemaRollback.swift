import MigrationStore

/// Takes a store file back to an earlier schema version, for tests of an upgrade: undoes what
/// each later migration changed (newest first) and forgets its version row. The store's own
/// migrations then bring it forward again when it is opened.
enum SchemaRollback {
  /// Undoes schema 11: the link tables as version 5 made them, empty.
  static let version11 = """
    DROP TABLE link_writes;
    DROP TABLE link_runs;
    CREATE TABLE link_runs (
      id TEXT PRIMARY KEY NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('apply', 'undo')),
      undoes_run_id TEXT REFERENCES link_runs(id),
      mapping TEXT NOT NULL,
      started_ms INTEGER NOT NULL,
      finished_ms INTEGER
    ) WITHOUT ROWID;
    CREATE TABLE link_writes (
      run_id TEXT NOT NULL REFERENCES link_runs(id),
      original_transaction_id TEXT NOT NULL,
      account_id TEXT NOT NULL,
      customer_id INTEGER REFERENCES customers(id),
      environment TEXT NOT NULL,
      is_subscription INTEGER NOT NULL,
      old_token TEXT,
      new_token TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('planned', 'sending', 'applied', 'failed', 'refused')),
      answer TEXT,
      attempted_ms INTEGER,
      answered_ms INTEGER,
      UNIQUE (run_id, original_transaction_id)
    );
    CREATE INDEX link_writes_by_customer ON link_writes(customer_id, state);
    DELETE FROM schema_version WHERE version = 11;
    """

  /// Undoes schema 10: `products_seen`.
  static let version10 = """
    DROP TABLE products_seen;
    DELETE FROM schema_version WHERE version = 10;
    """

  /// Takes the store at `path` back to `version` (9 or 10).
  ///
  /// - Parameters:
  ///   - path: the store file, closed.
  ///   - version: the version to go back to.
  ///   - then: SQL run on the file afterwards (rows as that version held them).
  static func store(at path: String, to version: Int, then: String = "") throws {
    let database = try SQLiteDatabase(location: .path(path))
    defer { try? database.close() }
    try database.execute(version11 + (version < 10 ? version10 : "") + then)
  }
}
