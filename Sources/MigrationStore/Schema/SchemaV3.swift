/// Schema version 3: properties of the store as a whole. The first is `app_store`, which App
/// Store the backfilled data came from (Apple or the simulator), so that a store never mixes
/// the simulator's signed answers with Apple's.
enum SchemaV3 {
  static let migration = SchemaMigration(
    version: 3, name: "store properties",
    sql: """
      CREATE TABLE store_properties (
        name TEXT PRIMARY KEY NOT NULL,
        value TEXT NOT NULL,
        updated_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      """)
}
