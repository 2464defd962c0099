/// Schema version 5: linking App Store purchases to the team's accounts (`appAccountToken`).
///
/// - `run_account_tokens`: the token mapping a run audited with, when it came from a file, so
///   `report` and `explain` recompute the same audit later (a derived mapping needs only its
///   namespace, kept in the run's inputs).
/// - `link_runs`: each `link --apply` or `--undo`, open until every write of its plan has an
///   answer; a run that is still open is resumed instead of planned again.
/// - `link_writes`: the journal, one row per purchase a link run writes: the token before and
///   after, and the state of the write. A row is `planned` before anything is sent, `sending`
///   (committed) just before the request leaves, and `applied`, `failed` or `refused` with the
///   App Store's answer after. A write found `sending` after a crash is in doubt: it is checked
///   against the App Store before anything is sent again, so no write is ever repeated blindly.
///   The latest applied write of a purchase is what the store knows its token to be until the
///   customer is fetched again.
enum SchemaV5 {
  static let migration = SchemaMigration(
    version: 5, name: "account tokens and the link journal",
    sql: """
      CREATE TABLE run_account_tokens (
        run_id TEXT NOT NULL REFERENCES runs(id),
        account_id TEXT NOT NULL,
        app_account_token TEXT NOT NULL,
        PRIMARY KEY (run_id, account_id)
      ) WITHOUT ROWID;

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
      """)
}
