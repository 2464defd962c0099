/// Schema version 4: keeping the App Store side current (the nightly audit's refresh).
///
/// - `customers.statuses_fetched_ms`: the App Store's clock when the customer's statuses were
///   last fetched — the instant its stored data is true as of.
/// - `subscription_statuses.transaction_id`, `expires_ms`, `signed_ms`: decoded from the signed
///   values, so the refresh finds states that have run out (an active status past its expiry,
///   a grace period past its end) with one query. Rows stored before version 4 are filled in
///   the first time a refresh runs.
/// - `refresh_queue`: the customers due to be asked again and why, persisted so a killed run
///   loses none; `history_done` records that this refresh's incremental history walk reached its
///   end, so a resumed refresh goes straight to the status call.
/// - `notification_feeds`: per environment, how far the notification history has been read
///   (`paged_through_ms`; every customer it named is queued), the window being read with its
///   pagination token, and the watermark: the instant the App Store data is current through
///   (moved up once nothing is left due).
/// - `lost_notifications`: notifications Apple never delivered to the team's server, found in
///   the notification history, each reported once by the first run that compares after it was
///   found (`reported_run_id`).
enum SchemaV4 {
  static let migration = SchemaMigration(
    version: 4, name: "refresh queue, notification feeds, lost notifications",
    sql: """
      ALTER TABLE customers ADD COLUMN statuses_fetched_ms INTEGER;

      ALTER TABLE subscription_statuses ADD COLUMN transaction_id TEXT;
      ALTER TABLE subscription_statuses ADD COLUMN expires_ms INTEGER;
      ALTER TABLE subscription_statuses ADD COLUMN signed_ms INTEGER;

      CREATE TABLE refresh_queue (
        customer_id INTEGER PRIMARY KEY NOT NULL REFERENCES customers(id),
        priority INTEGER NOT NULL,
        reason TEXT NOT NULL CHECK (reason IN ('ran_out', 'notification', 'billing_retry', 'window_lost')),
        detail TEXT NOT NULL,
        data_ms INTEGER,
        enqueued_ms INTEGER NOT NULL,
        history_done INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT
      );
      CREATE INDEX refresh_queue_by_order ON refresh_queue(priority, data_ms, customer_id);

      CREATE TABLE notification_feeds (
        environment TEXT PRIMARY KEY NOT NULL,
        paged_through_ms INTEGER NOT NULL,
        watermark_ms INTEGER NOT NULL,
        window_start_ms INTEGER,
        window_end_ms INTEGER,
        pagination_token TEXT,
        window_pages INTEGER NOT NULL DEFAULT 0,
        updated_ms INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE lost_notifications (
        notification_uuid TEXT PRIMARY KEY NOT NULL,
        environment TEXT NOT NULL,
        notification_type TEXT NOT NULL,
        subtype TEXT,
        signed_ms INTEGER,
        original_transaction_id TEXT,
        transaction_id TEXT,
        customer_id INTEGER REFERENCES customers(id),
        first_attempt_ms INTEGER,
        last_attempt_ms INTEGER,
        last_result TEXT,
        found_ms INTEGER NOT NULL,
        reported_run_id TEXT,
        signed_payload TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX lost_notifications_by_run ON lost_notifications(reported_run_id);
      """)
}
