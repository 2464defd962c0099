/// Schema version 1: the legacy side — accounts, every legacy record verbatim, the seed ids
/// taken from them, the old logic's verdicts, quarantined inputs and ingest runs.
///
/// Times are Unix milliseconds (`*_ms`), ids are text (never numbers: they exceed 2^53), and
/// raw inputs are kept byte for byte so nothing is ever thrown away.
enum SchemaV1 {
  static let migration = SchemaMigration(
    version: 1, name: "legacy records, seeds, old entitlements, quarantine",
    sql: """
      CREATE TABLE accounts (
        account_id TEXT PRIMARY KEY NOT NULL,
        first_ingested_ms INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE ingest_runs (
        id INTEGER PRIMARY KEY,
        started_ms INTEGER NOT NULL,
        finished_ms INTEGER,
        inputs TEXT NOT NULL,
        summary TEXT
      );

      CREATE TABLE legacy_records (
        id INTEGER PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(account_id),
        version INTEGER NOT NULL,
        content_sha256 BLOB NOT NULL,
        source_path TEXT NOT NULL,
        source_line INTEGER,
        source_offset INTEGER NOT NULL,
        format TEXT NOT NULL CHECK (format IN ('ndjson', 'json', 'csv')),
        kind TEXT NOT NULL CHECK (kind IN ('response', 'raw_receipt', 'seed')),
        status INTEGER,
        environment TEXT,
        captured_ms INTEGER,
        bundle_id TEXT,
        shape TEXT,
        raw BLOB NOT NULL,
        ingest_run_id INTEGER NOT NULL REFERENCES ingest_runs(id),
        UNIQUE (account_id, content_sha256),
        UNIQUE (account_id, version)
      );
      CREATE INDEX legacy_records_by_account ON legacy_records(account_id, captured_ms);

      CREATE TABLE seeds (
        account_id TEXT NOT NULL REFERENCES accounts(account_id),
        original_transaction_id TEXT NOT NULL,
        record_id INTEGER NOT NULL REFERENCES legacy_records(id),
        source TEXT NOT NULL,
        environment TEXT,
        PRIMARY KEY (account_id, original_transaction_id, record_id)
      ) WITHOUT ROWID;
      CREATE INDEX seeds_by_id ON seeds(original_transaction_id);

      CREATE TABLE old_entitlements (
        record_id INTEGER NOT NULL REFERENCES legacy_records(id),
        as_of_ms INTEGER NOT NULL,
        basis TEXT NOT NULL CHECK (basis IN ('capture', 'as_of')),
        entitlement_key TEXT NOT NULL,
        kind TEXT NOT NULL,
        status TEXT NOT NULL,
        entitled INTEGER NOT NULL,
        product_id TEXT,
        expires_ms INTEGER,
        grace_period_expires_ms INTEGER,
        ownership TEXT,
        expiration_intent INTEGER,
        auto_renew_status INTEGER,
        original_transaction_id TEXT,
        transaction_id TEXT,
        revocation_ms INTEGER,
        reason TEXT NOT NULL,
        PRIMARY KEY (record_id, as_of_ms, entitlement_key)
      ) WITHOUT ROWID;

      CREATE TABLE quarantine (
        id INTEGER PRIMARY KEY,
        source_path TEXT NOT NULL,
        source_line INTEGER,
        source_offset INTEGER NOT NULL,
        content_sha256 BLOB NOT NULL,
        reason TEXT NOT NULL,
        detail TEXT NOT NULL,
        excerpt TEXT NOT NULL,
        ingest_run_id INTEGER NOT NULL REFERENCES ingest_runs(id),
        UNIQUE (source_path, source_offset, content_sha256)
      );
      """)
}
