/// Takes a store of schema version 11 back to version 10, for tests that build an older store
/// from a current one: what `SchemaV11` added is removed, and its version row.
enum SchemaVersion11Undo {
  static let sql = """
    DROP TABLE set_aside_fields;
    DROP TABLE order_seeds;
    DROP TABLE order_outcomes;
    DROP INDEX legacy_records_partial;
    DROP INDEX legacy_records_by_account_version;
    ALTER TABLE legacy_records DROP COLUMN set_aside_count;
    CREATE INDEX legacy_records_by_account_version ON legacy_records(
      account_id, version, kind, status, format, environment, captured_ms, source_path,
      source_line);
    DELETE FROM schema_version WHERE version = 11;
    """
}
