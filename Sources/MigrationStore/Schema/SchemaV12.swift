/// Schema version 12: stored responses no longer keep `latest_receipt`.
///
/// Every legacy record was kept byte for byte, `latest_receipt` included: the customer's whole
/// app receipt, base64, about a sixth of the stored legacy bytes, which nothing reads (see
/// ``LatestReceiptRemoval``). New records are stored without it; this upgrade removes it from
/// the records already stored, replacing its value with `"<removed>"` and leaving every other
/// byte, the content hash and the compact copies as they were. The rows are rewritten with
/// `secure_delete` on, so the receipts' old pages are overwritten with zeros rather than left in
/// the file's free space; the file keeps its size until `VACUUM`.
///
/// No table changes: the version records that the store keeps no receipt it does not need.
enum SchemaV12 {
  static let migration = SchemaMigration(version: 12, name: "legacy records without latest_receipt")
  { database in
    let secureDelete = try database.firstRow("PRAGMA secure_delete") { try $0.int(at: 0) } ?? 0
    try database.execute("PRAGMA secure_delete = ON")
    defer { try? database.execute("PRAGMA secure_delete = \(secureDelete)") }
    var after: Int64 = 0
    while true {
      var batch: [(id: Int64, raw: [UInt8])] = []
      try database.forEachRow(
        """
        SELECT id, raw FROM legacy_records
        WHERE id > ? AND kind = 'response' AND instr(raw, CAST('"latest_receipt"' AS BLOB)) > 0
        ORDER BY id LIMIT 500
        """, binding: after
      ) { row in batch.append((try row.int64(at: 0), try row.blob(at: 1))) }
      guard let last = batch.last else { return }
      for record in batch {
        let kept = LatestReceiptRemoval.removing(from: record.raw)
        guard kept != record.raw else { continue }
        try database.run(
          "UPDATE legacy_records SET raw = ? WHERE id = ?", binding: kept, record.id)
      }
      after = last.id
    }
  }
}
