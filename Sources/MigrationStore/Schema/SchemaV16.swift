/// Schema version 16: a nightly audit that proves its change feed and never claims more than it
/// saw.
///
/// - `feed_health`: per environment, the latest proof that the App Store's notification history
///   lists what Apple sends — the test notification requested (when, its token and UUID, what
///   Apple answered, when it appeared in the history, or when the history was searched for it in
///   vain); the last check that every renewal the stored data expected inside a window came
///   with a notification; and the latest check that found renewals without one (a feed that
///   drops notifications stays unproven for a proof interval after that). A proof is requested
///   at most once per interval; the audit says `healthy`, `unproven` or `absent` from these
///   rows.
/// - `customers.notified_ms`: the `signedDate` of the latest notification that named the
///   customer, so the renewal check sees notifications read by earlier runs too.
/// - `invalid_notifications`: notifications whose signature (or chain, or app) failed
///   verification, each kept with its reason and its payload as received; what it says was read
///   only to make the customers it names due, never to classify them. `looked_up_ms`: when the
///   App Store was asked (Get Transaction Info) about the transaction one names whose customer
///   the store did not hold — the verified answer then says who the customer is, and a customer
///   outside the store is followed or listed as unclaimed from it.
/// - `lost_notifications.delivery`: `pending` while Apple may still retry a failed delivery (in
///   production up to five more times, 1, 12, 24, 48 and 72 hours after the previous attempt;
///   sandbox tries once), `delivered_late` when a later attempt succeeded, `lost` when the last
///   attempt failed. `attempts` counts the failed attempts seen; `final_ms` is when the
///   delivery was found final. Rows stored before this version were reported as lost and stay
///   so.
/// - `refresh_queue.reason` takes two more reasons: `hint` (a notification that failed
///   verification names the customer) and `sweep` (the feed cannot vouch for the time since the
///   customer's data was fetched, and the data is older than `--max-data-age`). SQLite cannot
///   change a `CHECK` in place, so the table is rebuilt with its rows.
/// - `unclaimed_customers`: App Store customers a notification named that no account of the
///   store holds — with their `appAccountToken` when the purchase carried one, how many
///   notifications named them and when, and the account a token mapping led them to once
///   followed.
enum SchemaV16 {
  static let migration = SchemaMigration(
    version: 16, name: "feed health, invalid notifications, delivery states, unclaimed customers",
    sql: """
      CREATE TABLE feed_health (
        environment TEXT PRIMARY KEY NOT NULL,
        test_requested_ms INTEGER,
        test_token TEXT,
        test_uuid TEXT,
        test_result TEXT CHECK (test_result IN ('pending', 'delivered', 'failed', 'absent', 'error')),
        test_detail TEXT,
        test_seen_ms INTEGER,
        test_looked_ms INTEGER,
        proven_ms INTEGER,
        check_ms INTEGER,
        check_start_ms INTEGER,
        check_end_ms INTEGER,
        check_expected INTEGER,
        check_missing INTEGER,
        check_failed_ms INTEGER,
        check_failed_detail TEXT,
        updated_ms INTEGER NOT NULL
      ) WITHOUT ROWID;

      ALTER TABLE customers ADD COLUMN notified_ms INTEGER;

      CREATE TABLE invalid_notifications (
        notification_key TEXT PRIMARY KEY NOT NULL,
        environment TEXT NOT NULL,
        reason TEXT NOT NULL,
        notification_type TEXT,
        signed_ms INTEGER,
        customer_id INTEGER REFERENCES customers(id),
        found_ms INTEGER NOT NULL,
        reported_run_id TEXT,
        signed_payload TEXT NOT NULL,
        looked_up_ms INTEGER
      ) WITHOUT ROWID;
      CREATE INDEX invalid_notifications_by_run ON invalid_notifications(reported_run_id);

      ALTER TABLE lost_notifications ADD COLUMN delivery TEXT NOT NULL DEFAULT 'lost'
        CHECK (delivery IN ('pending', 'lost', 'delivered_late'));
      ALTER TABLE lost_notifications ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE lost_notifications ADD COLUMN final_ms INTEGER;
      CREATE INDEX lost_notifications_by_delivery ON lost_notifications(environment, delivery);

      CREATE TABLE refresh_queue_v16 (
        customer_id INTEGER PRIMARY KEY NOT NULL REFERENCES customers(id),
        priority INTEGER NOT NULL,
        reason TEXT NOT NULL
          CHECK (reason IN ('ran_out', 'notification', 'billing_retry', 'window_lost', 'hint', 'sweep')),
        detail TEXT NOT NULL,
        data_ms INTEGER,
        enqueued_ms INTEGER NOT NULL,
        history_done INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
      );
      INSERT INTO refresh_queue_v16 (customer_id, priority, reason, detail, data_ms, enqueued_ms,
        history_done, attempts, last_error)
        SELECT customer_id, priority, reason, detail, data_ms, enqueued_ms, history_done, attempts,
          last_error FROM refresh_queue;
      DROP TABLE refresh_queue;
      ALTER TABLE refresh_queue_v16 RENAME TO refresh_queue;
      CREATE INDEX refresh_queue_by_order ON refresh_queue(priority, data_ms, customer_id);

      CREATE TABLE unclaimed_customers (
        environment TEXT NOT NULL,
        customer_key TEXT NOT NULL,
        original_transaction_id TEXT,
        app_account_token TEXT,
        first_signed_ms INTEGER,
        last_signed_ms INTEGER,
        notifications INTEGER NOT NULL DEFAULT 0,
        last_type TEXT,
        claimed_account_id TEXT,
        found_ms INTEGER NOT NULL,
        PRIMARY KEY (environment, customer_key)
      ) WITHOUT ROWID;
      """)
}
