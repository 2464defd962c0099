import MigrationStore

/// Takes a store file back to an earlier schema version, for tests of an upgrade: undoes what
/// each later migration changed (newest first) and forgets its version row. The store's own
/// migrations then bring it forward again when it is opened.
enum SchemaRollback {
  /// What undoes each version, by version.
  static let undo: [Int: String] = [
    // Schema 16 added the audit's feed health, invalid notifications, delivery states, unclaimed
    // customers and two refresh reasons.
    16: """
    DROP TABLE feed_health;
    DROP TABLE invalid_notifications;
    DROP TABLE unclaimed_customers;
    DROP INDEX lost_notifications_by_delivery;
    ALTER TABLE lost_notifications DROP COLUMN delivery;
    ALTER TABLE lost_notifications DROP COLUMN attempts;
    ALTER TABLE lost_notifications DROP COLUMN final_ms;
    ALTER TABLE customers DROP COLUMN notified_ms;
    CREATE TABLE refresh_queue_v15 (
      customer_id INTEGER PRIMARY KEY NOT NULL REFERENCES customers(id),
      priority INTEGER NOT NULL,
      reason TEXT NOT NULL
        CHECK (reason IN ('ran_out', 'notification', 'billing_retry', 'window_lost')),
      detail TEXT NOT NULL,
      data_ms INTEGER,
      enqueued_ms INTEGER NOT NULL,
      history_done INTEGER NOT NULL DEFAULT 0,
      attempts INTEGER NOT NULL DEFAULT 0,
      last_error TEXT
    );
    INSERT INTO refresh_queue_v15 SELECT customer_id, priority, reason, detail, data_ms,
      enqueued_ms, history_done, attempts, last_error FROM refresh_queue
      WHERE reason NOT IN ('hint', 'sweep');
    DROP TABLE refresh_queue;
    ALTER TABLE refresh_queue_v15 RENAME TO refresh_queue;
    CREATE INDEX refresh_queue_by_order ON refresh_queue(priority, data_ms, customer_id);
    """,
    // Schema 15 added set-aside fields and order ids.
    15: """
    DROP TABLE set_aside_fields;
    DROP TABLE order_seeds;
    DROP TABLE order_outcomes;
    DROP INDEX legacy_records_partial;
    DROP INDEX legacy_records_by_account_version;
    ALTER TABLE legacy_records DROP COLUMN set_aside_count;
    CREATE INDEX legacy_records_by_account_version ON legacy_records(
      account_id, version, kind, status, format, environment, captured_ms, source_path,
      source_line);
    """,
    // Schema 14 added the journal of `notifications replay`.
    14: "DROP TABLE notification_replays;",
    // Schema 13 rebuilt the link tables with their journal states: back to version 5's, empty.
    13: """
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
    """,
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
