/// Schema version 13: a link journal a team can audit — which App Store each link run wrote
/// to, and one state per write that says exactly what became of it.
///
/// - `link_runs.app_store`, `link_runs.app_store_identity`: how the run named the App Store it
///   wrote to (production, sandbox, a simulator), and the identity the store's provenance
///   records, so a run is resumed or undone only against the App Store it wrote to.
/// - `link_writes` is rebuilt with the states `planned` (nothing sent), `sent` (committed just
///   before the request left; in doubt after a crash), `confirmed` (Apple accepted it, or held
///   it already when an in-doubt write was checked), `failed` (Apple refused it, or it failed
///   after retries), `skipped` (never sent; `reason` says why) and `undone` (confirmed, then
///   restored by the undo run `undone_by`). Rows of earlier versions keep their meaning:
///   `sending` becomes `sent`, `applied` `confirmed` (or `undone` when a finished undo restored
///   it), `refused` `skipped` with the reason its message named.
/// - `link_writes.reason`: the stable name of why a write was skipped (`consumable`,
///   `changed_since_plan`, `no_previous_token`, …).
/// - `link_writes.product_type`, `link_writes.latest_transaction_id`: the purchase's type and
///   its latest transaction when the write was judged, so an undo can say which renewals came
///   after it (Apple never rewrites a past transaction's token).
enum SchemaV13 {
  static let migration = SchemaMigration(
    version: 13, name: "link journal states",
    sql: """
      ALTER TABLE link_runs ADD COLUMN app_store TEXT;
      ALTER TABLE link_runs ADD COLUMN app_store_identity TEXT;

      CREATE TABLE link_writes_v13 (
        run_id TEXT NOT NULL REFERENCES link_runs(id),
        original_transaction_id TEXT NOT NULL,
        account_id TEXT NOT NULL,
        customer_id INTEGER REFERENCES customers(id),
        environment TEXT NOT NULL,
        is_subscription INTEGER NOT NULL,
        product_type TEXT,
        latest_transaction_id TEXT,
        old_token TEXT,
        new_token TEXT NOT NULL,
        state TEXT NOT NULL
          CHECK (state IN ('planned', 'sent', 'confirmed', 'failed', 'skipped', 'undone')),
        reason TEXT,
        answer TEXT,
        undone_by TEXT REFERENCES link_runs(id),
        attempted_ms INTEGER,
        answered_ms INTEGER,
        UNIQUE (run_id, original_transaction_id)
      );
      INSERT INTO link_writes_v13 (
        rowid, run_id, original_transaction_id, account_id, customer_id, environment,
        is_subscription, old_token, new_token, state, reason, answer, attempted_ms, answered_ms)
      SELECT rowid, run_id, original_transaction_id, account_id, customer_id, environment,
        is_subscription, old_token, new_token,
        CASE state WHEN 'sending' THEN 'sent' WHEN 'applied' THEN 'confirmed'
          WHEN 'refused' THEN 'skipped' ELSE state END,
        CASE WHEN state <> 'refused' THEN NULL
          WHEN answer LIKE 'family-shared%' THEN 'family_shared'
          WHEN answer LIKE '%holds no original purchase%' THEN 'not_original'
          WHEN answer LIKE 'its customer is linked to accounts%' THEN 'several_accounts'
          WHEN answer LIKE 'the purchase had no token before%' THEN 'no_previous_token'
          ELSE NULL END,
        answer, attempted_ms, answered_ms
      FROM link_writes;
      UPDATE link_writes_v13 SET state = 'undone', undone_by = (
          SELECT u.run_id FROM link_writes_v13 u JOIN link_runs r ON r.id = u.run_id
          WHERE r.undoes_run_id = link_writes_v13.run_id
            AND u.original_transaction_id = link_writes_v13.original_transaction_id
            AND u.state = 'confirmed')
        WHERE state = 'confirmed' AND EXISTS (
          SELECT 1 FROM link_writes_v13 u JOIN link_runs r ON r.id = u.run_id
          WHERE r.undoes_run_id = link_writes_v13.run_id
            AND u.original_transaction_id = link_writes_v13.original_transaction_id
            AND u.state = 'confirmed');
      DROP TABLE link_writes;
      ALTER TABLE link_writes_v13 RENAME TO link_writes;
      CREATE INDEX link_writes_by_customer ON link_writes(customer_id, state);
      """)
}
