/// Schema version 7: the products the stored transactions name, found from an index.
///
/// `compare` and `report` first learn which products the App Store's transactions name, with
/// the type and subscription group Apple signed for each (what completes a catalogue that omits
/// a product). Without an index that meant reading every stored transaction, signed value and
/// all: about half a second for 100,000 accounts before any account was compared, and five for a
/// million. `transactions_by_product` covers that question, so it reads only the index.
enum SchemaV7 {
  static let migration = SchemaMigration(
    version: 7, name: "transactions indexed by product",
    sql: """
      CREATE INDEX transactions_by_product ON transactions(product_id, type, subscription_group);
      """)
}
