/// Schema version 2: the App Store side — customers, what became of every seed id, the signed
/// transactions, statuses and app transactions (raw JWS beside their decoded columns), revision
/// tokens, and per-run request counters; plus runs, the team table each run compared, and each
/// run's classification of every account (so drift between runs can be queried).
enum SchemaV2 {
  static let migration = SchemaMigration(
    version: 2, name: "customers, signed data, runs and comparisons",
    sql: """
      CREATE TABLE customers (
        id INTEGER PRIMARY KEY,
        customer_key TEXT NOT NULL UNIQUE,
        app_transaction_id TEXT,
        environment TEXT NOT NULL,
        walk_transaction_id TEXT NOT NULL,
        history_revision TEXT,
        history_pages INTEGER NOT NULL DEFAULT 0,
        history_complete INTEGER NOT NULL DEFAULT 0,
        statuses_complete INTEGER NOT NULL DEFAULT 0,
        app_transaction_complete INTEGER NOT NULL DEFAULT 0,
        updated_ms INTEGER NOT NULL
      );

      CREATE TABLE seed_outcomes (
        original_transaction_id TEXT PRIMARY KEY NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('found', 'covered', 'unknown', 'invalid', 'failed')),
        environment TEXT,
        customer_id INTEGER REFERENCES customers(id),
        last_error TEXT,
        updated_ms INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE account_customers (
        account_id TEXT NOT NULL REFERENCES accounts(account_id),
        customer_id INTEGER NOT NULL REFERENCES customers(id),
        PRIMARY KEY (account_id, customer_id)
      ) WITHOUT ROWID;
      CREATE INDEX account_customers_by_customer ON account_customers(customer_id);

      CREATE TABLE transactions (
        transaction_id TEXT PRIMARY KEY NOT NULL,
        customer_id INTEGER NOT NULL REFERENCES customers(id),
        original_transaction_id TEXT,
        product_id TEXT,
        subscription_group TEXT,
        type TEXT,
        purchase_ms INTEGER,
        original_purchase_ms INTEGER,
        expires_ms INTEGER,
        revocation_ms INTEGER,
        revocation_reason INTEGER,
        revocation_type TEXT,
        revocation_percentage INTEGER,
        is_upgraded INTEGER,
        ownership TEXT,
        offer_type INTEGER,
        offer_identifier TEXT,
        transaction_reason TEXT,
        environment TEXT,
        app_transaction_id TEXT,
        app_account_token TEXT,
        signed_ms INTEGER,
        jws TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX transactions_by_customer ON transactions(customer_id);
      CREATE INDEX transactions_by_original ON transactions(original_transaction_id);

      CREATE TABLE subscription_statuses (
        customer_id INTEGER NOT NULL REFERENCES customers(id),
        original_transaction_id TEXT NOT NULL,
        subscription_group TEXT NOT NULL,
        status INTEGER NOT NULL,
        auto_renew_status INTEGER,
        auto_renew_product_id TEXT,
        expiration_intent INTEGER,
        billing_retry INTEGER,
        grace_period_expires_ms INTEGER,
        renewal_signed_ms INTEGER,
        transaction_jws TEXT NOT NULL,
        renewal_jws TEXT,
        PRIMARY KEY (customer_id, original_transaction_id)
      ) WITHOUT ROWID;

      CREATE TABLE app_transactions (
        customer_id INTEGER PRIMARY KEY REFERENCES customers(id),
        app_transaction_id TEXT,
        original_application_version TEXT,
        original_purchase_ms INTEGER,
        jws TEXT
      );

      CREATE TABLE runs (
        id TEXT PRIMARY KEY NOT NULL,
        started_ms INTEGER NOT NULL,
        finished_ms INTEGER,
        as_of_ms INTEGER NOT NULL,
        simulated INTEGER NOT NULL,
        inputs TEXT NOT NULL,
        summary TEXT
      ) WITHOUT ROWID;

      CREATE TABLE request_counters (
        run_id TEXT NOT NULL REFERENCES runs(id),
        endpoint TEXT NOT NULL,
        counters TEXT NOT NULL,
        PRIMARY KEY (run_id, endpoint)
      ) WITHOUT ROWID;

      CREATE TABLE run_current_entitlements (
        run_id TEXT NOT NULL REFERENCES runs(id),
        account_id TEXT NOT NULL,
        product_id TEXT NOT NULL,
        status TEXT NOT NULL,
        expires_ms INTEGER
      );
      CREATE INDEX run_current_entitlements_by_account ON run_current_entitlements(run_id, account_id);

      CREATE TABLE comparisons (
        run_id TEXT NOT NULL REFERENCES runs(id),
        account_id TEXT NOT NULL,
        category TEXT NOT NULL,
        table_category TEXT,
        cause TEXT,
        explanation TEXT NOT NULL,
        PRIMARY KEY (run_id, account_id)
      ) WITHOUT ROWID;
      """)
}
