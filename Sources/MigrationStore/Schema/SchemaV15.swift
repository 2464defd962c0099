/// Schema version 15: what a damaged record set aside, and the ids of customers without a
/// transaction id.
///
/// Real archives carry damage in single fields — a placeholder id in `pending_renewal_info`,
/// a masked `item_id`, a date an export rewrote. Ingest no longer quarantines a whole record
/// for one such field: it keeps the record as *partial* and sets the field aside, and
/// `explain` shows what was set aside long after the ingest that did it. Teams also hold ids
/// that are not transaction ids: the `appTransactionId` every customer has (even one who never
/// paid) and the order id on a customer's receipt e-mail.
///
/// - `legacy_records.set_aside_count`: how many fields of the record were set aside (0 for a
///   whole record); summaries count partial records with it, through a partial index that
///   holds only those records (counting them must not read every record's bytes); and
///   `legacy_records_by_account_version` is rebuilt with it, so that listing an account's
///   records for the comparison still reads the index alone (the rebuild reads every record
///   once, when the store is upgraded).
/// - `set_aside_fields`: each set-aside field of a record: its JSON path or CSV column, the
///   reason (`masked`, `malformed transaction id`, `malformed order id`, `wrong type`,
///   `unparsable date`), the sentence, a sanitised excerpt of the value and its byte offset.
/// - `order_seeds`: the order ids each account's records name, with the record and its
///   environment hint. App transaction ids need no table of their own: the App Store Server
///   API takes them wherever it takes a transaction id, so they are `seeds` (source
///   `app_transaction_id`).
/// - `order_outcomes`: what Look Up Order ID answered for each order id — `valid` with the
///   transaction ids of the order (which become `seeds` of source `order_id`), `invalid`
///   (status 1: not an order of this app), or `failed` (asked again by the next backfill).
enum SchemaV15 {
  static let migration = SchemaMigration(
    version: 15, name: "set-aside fields and order ids",
    sql: """
      ALTER TABLE legacy_records ADD COLUMN set_aside_count INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX legacy_records_partial ON legacy_records(set_aside_count)
        WHERE set_aside_count > 0;
      DROP INDEX legacy_records_by_account_version;
      CREATE INDEX legacy_records_by_account_version ON legacy_records(
        account_id, version, kind, status, format, environment, captured_ms, source_path,
        source_line, set_aside_count);

      CREATE TABLE set_aside_fields (
        record_id INTEGER NOT NULL REFERENCES legacy_records(id),
        position INTEGER NOT NULL,
        path TEXT NOT NULL,
        reason TEXT NOT NULL,
        detail TEXT NOT NULL,
        excerpt TEXT NOT NULL,
        byte_offset INTEGER,
        PRIMARY KEY (record_id, position)
      ) WITHOUT ROWID;

      CREATE TABLE order_seeds (
        account_id TEXT NOT NULL REFERENCES accounts(account_id),
        order_id TEXT NOT NULL,
        record_id INTEGER NOT NULL REFERENCES legacy_records(id),
        environment TEXT,
        PRIMARY KEY (account_id, order_id, record_id)
      ) WITHOUT ROWID;
      CREATE INDEX order_seeds_by_order ON order_seeds(order_id);

      CREATE TABLE order_outcomes (
        order_id TEXT PRIMARY KEY NOT NULL,
        outcome TEXT NOT NULL CHECK (outcome IN ('valid', 'invalid', 'failed')),
        environment TEXT,
        transaction_ids TEXT NOT NULL DEFAULT '',
        last_error TEXT,
        updated_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      """)
}
