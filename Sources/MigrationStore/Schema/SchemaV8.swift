/// Schema version 8: a compact copy of each usable legacy response, and the legacy records'
/// columns `compare` reads, indexed by account.
///
/// `compare` and `report` decode every account's stored verifyReceipt responses on every run.
/// The verbatim bytes (kept as they were read) are most of the store: JSON with each date three
/// times, each transaction twice and the base64 receipt, about 8–60 KB a response. A compact
/// binary copy of the decoded response, written at ingest, holds what the old logic reads in a
/// tenth of that, so a nightly run over a million accounts reads a few hundred megabytes of
/// legacy data instead of ten gigabytes. `format` is the version of the compact form; a copy of
/// another version is ignored and the verbatim bytes decoded instead.
///
/// `legacy_records_by_account_version` covers the columns the comparison lists for each record
/// (everything but the verbatim bytes), so listing an account's records no longer reads the
/// table's pages, where the verbatim bytes live.
///
/// Records stored before this version have no compact copy until they are ingested again
/// (ingesting the same files adds the copies and nothing else); until then they are read as
/// before.
enum SchemaV8 {
  static let migration = SchemaMigration(
    version: 8, name: "compact copies of legacy responses",
    sql: """
      CREATE TABLE compact_responses (
        record_id INTEGER PRIMARY KEY REFERENCES legacy_records(id),
        format INTEGER NOT NULL,
        body BLOB NOT NULL
      );
      CREATE INDEX legacy_records_by_account_version ON legacy_records(
        account_id, version, kind, status, format, environment, captured_ms, source_path,
        source_line);
      """)
}
