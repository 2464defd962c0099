/// Schema version 6: each distinct JWS header stored once.
///
/// Every value Apple signs carries its certificate chain in the JWS header (`x5c`): about
/// 2.9 KB of a 3.8 KB signed transaction, and the same bytes in every value signed by the same
/// key. Stored whole, the headers were two thirds of the signed data and most of what `compare`
/// read back.
///
/// - `jws_headers`: each distinct header segment (the text before the first `.`), once.
/// - `transactions.jws_header_id`, `subscription_statuses.transaction_jws_header_id` and
///   `renewal_jws_header_id`: when set, the matching JWS column holds only the rest of the value
///   (payload and signature, without the leading `.`), and the value is
///   `header || '.' || rest`, byte for byte what Apple sent. When `NULL` (every row stored
///   before version 6, until its customer is fetched again) the column holds the whole value.
/// - The views `transactions_signed` and `subscription_statuses_signed` give the whole values
///   back for anyone reading the store with `sqlite3`.
enum SchemaV6 {
  static let migration = SchemaMigration(
    version: 6, name: "JWS headers stored once",
    sql: """
      CREATE TABLE jws_headers (
        id INTEGER PRIMARY KEY,
        header TEXT NOT NULL UNIQUE
      );

      ALTER TABLE transactions ADD COLUMN jws_header_id INTEGER REFERENCES jws_headers(id);
      ALTER TABLE subscription_statuses ADD COLUMN transaction_jws_header_id INTEGER REFERENCES jws_headers(id);
      ALTER TABLE subscription_statuses ADD COLUMN renewal_jws_header_id INTEGER REFERENCES jws_headers(id);

      CREATE VIEW transactions_signed AS
        SELECT transaction_id, customer_id,
          CASE WHEN jws_header_id IS NULL THEN jws
            ELSE (SELECT header FROM jws_headers WHERE id = jws_header_id) || '.' || jws END AS jws
        FROM transactions;

      CREATE VIEW subscription_statuses_signed AS
        SELECT customer_id, original_transaction_id,
          CASE WHEN transaction_jws_header_id IS NULL THEN transaction_jws
            ELSE (SELECT header FROM jws_headers WHERE id = transaction_jws_header_id) || '.' || transaction_jws
          END AS transaction_jws,
          CASE WHEN renewal_jws_header_id IS NULL THEN renewal_jws
            ELSE (SELECT header FROM jws_headers WHERE id = renewal_jws_header_id) || '.' || renewal_jws
          END AS renewal_jws
        FROM subscription_statuses;
      """)
}
