/// Schema version 9: a compact copy of each stored transaction, kept by customer.
///
/// `compare` and `report` decode every customer's signed transactions on every run. The
/// transactions table holds each one as Apple signed it (about 1.2 KB without its header) and is
/// keyed by transaction id, so one customer's transactions lie on pages scattered through a
/// table of ten gigabytes at a million accounts — more than the page cache of a modest machine
/// keeps. A compact binary copy of each decoded payload (about 200 bytes), keyed by customer,
/// puts a customer's transactions side by side in a table a seventh of the size, and spares
/// decoding base64 and JSON again.
///
/// - `compact_transactions`: one copy per stored transaction, by customer and transaction id;
///   `format` is the version of the compact form.
/// - `customers.compact_transactions_format`: when set, every stored transaction of the
///   customer has a copy of that version, so its copies can stand in for its signed values.
///   `NULL` for every customer stored before this version (until `compare` builds their copies
///   from the signed values once), and for any customer a transaction was stored for without a
///   copy of that version.
enum SchemaV9 {
  static let migration = SchemaMigration(
    version: 9, name: "compact copies of transactions",
    sql: """
      CREATE TABLE compact_transactions (
        customer_id INTEGER NOT NULL REFERENCES customers(id),
        transaction_id TEXT NOT NULL,
        format INTEGER NOT NULL,
        body BLOB NOT NULL,
        PRIMARY KEY (customer_id, transaction_id)
      ) WITHOUT ROWID;
      ALTER TABLE customers ADD COLUMN compact_transactions_format INTEGER;
      """)
}
