/// Schema version 10: the products the App Store's stored transactions describe, kept as they
/// are stored.
///
/// Every `compare`, `report` and `explain` completes the catalogue with each product Apple
/// signed a transaction for: its type, and a subscription's group. Asked of `transactions`, that
/// is a pass over every stored transaction — ten gigabytes at a million accounts, 8 s with a
/// cold page cache, and as long for `explain` of a single account. `products_seen` holds the
/// answer, one row per product, kept by the backfill and the refresh as they store each
/// transaction.
///
/// - `products_seen`: each product id any stored transaction carried, with the greatest `type`
///   and `subscription_group` any of them carried (`NULL` when none did) — what a `GROUP BY
///   product_id` over the transactions with `MAX` gives. Filled from the stored transactions
///   when a store of version 9 is upgraded.
enum SchemaV10 {
  static let migration = SchemaMigration(
    version: 10, name: "products seen",
    sql: """
      CREATE TABLE products_seen (
        product_id TEXT PRIMARY KEY NOT NULL,
        type TEXT,
        subscription_group TEXT
      ) WITHOUT ROWID;
      INSERT INTO products_seen (product_id, type, subscription_group)
        SELECT product_id, MAX(type), MAX(subscription_group) FROM transactions
        WHERE product_id IS NOT NULL GROUP BY product_id;
      """)
}
