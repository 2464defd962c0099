import Chronology
import Foundation
import LegacyReceipts
import MigrationPipeline
import MigrationStore
import TestDirectories
import Testing

@Suite("IngestStage")
struct IngestStageTests {
  @Test("ingests the hand-made sample, and ingesting it again adds nothing")
  func sampleTwice() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let catalog = try ProductCatalog(
      csv: String(
        contentsOf: legacyDirectory.appendingPathComponent("products.csv"), encoding: .utf8))
    let options = IngestOptions(
      paths: [legacyDirectory.appendingPathComponent("handmade").path], catalog: catalog)
    let observer = RecordingObserver()
    let first = try IngestStage(
      store: store, options: options, now: SteppingClock().now, observer: observer
    ).run()
    #expect(first.recordsRead == 27)
    #expect(first.accepted == 27 && first.newRecords == 27 && first.quarantined == 0)
    #expect(first.acceptedByKind == ["response": 22, "raw_receipt": 1, "seed": 4])
    #expect(first.totals.accounts == 25)
    #expect(first.totals.records == 27)
    #expect(first.totals.rawReceiptsPending == 0)
    #expect(first.totals.distinctOriginalTransactionIds == 27)
    #expect(first.totals.responsesByStatus == [0: 20, 21006: 1, 21010: 1])
    #expect(
      first.totals.oldEntitlementsByStatus
        == ["active": 10, "expired": 5, "billing_retry": 1, "grace_period": 1, "revoked": 2])
    #expect(observer.events.withLock { $0.first } == "start ingest bytes \(first.bytesRead)")
    #expect(observer.events.withLock { $0.last } == "finish ingest")

    let second = try IngestStage(store: store, options: options, now: SteppingClock().now).run()
    #expect(second.recordsRead == 27 && second.newRecords == 0 && second.alreadyStored == 27)
    #expect(second.totals.records == first.totals.records)
    #expect(
      second.totals.distinctOriginalTransactionIds == first.totals.distinctOriginalTransactionIds)
  }

  /// Each stored response's `latest_receipt` (the customer's whole base64 receipt, which nothing
  /// reads) is replaced by "<removed>", unless asked for; the same files are still recognised,
  /// and the responses decode to the same thing either way. Evidence: our own code, the store
  /// read back with SQLite.
  @Test("stored responses keep no latest_receipt unless asked; the same files stay recognised")
  func latestReceiptRemoved() throws {
    let legacyDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Legacy")
    var storedByKeeping: [Bool: [String: [UInt8]]] = [:]
    for keeps in [false, true] {
      let directory = try TemporaryDirectory.make()
      defer { TemporaryDirectory.remove(directory) }
      let path = directory.appendingPathComponent("state.sqlite").path
      let store = try MigrationStore(path: path, now: { 0 })
      let options = IngestOptions(
        paths: [legacyDirectory.appendingPathComponent("handmade").path],
        catalog: ProductCatalog(), keepsLatestReceipt: keeps)
      let first = try IngestStage(store: store, options: options, now: SteppingClock().now).run()
      let again = try IngestStage(store: store, options: options, now: SteppingClock().now).run()
      #expect(again.newRecords == 0 && again.alreadyStored == first.accepted)
      try store.close()
      let database = try SQLiteDatabase(location: .path(path), mode: .readOnly)
      defer { try? database.close() }
      var raws: [String: [UInt8]] = [:]
      try database.forEachRow(
        "SELECT format || '#' || account_id || '#' || version, raw FROM legacy_records WHERE kind = 'response'"
      ) { raws[try $0.string(at: 0)] = try $0.blob(at: 1) }
      storedByKeeping[keeps] = raws
      let withReceipt = raws.values.filter {
        String(decoding: $0, as: UTF8.self).contains(#""latest_receipt""#)
      }
      #expect(withReceipt.count >= 17)
      for raw in withReceipt {
        #expect(
          String(decoding: raw, as: UTF8.self).contains(#""<removed>""#) == !keeps,
          "\(String(decoding: raw.prefix(120), as: UTF8.self))")
      }
    }
    // Removing the receipt changes nothing the decoder reads.
    let removed = try #require(storedByKeeping[false])
    let kept = try #require(storedByKeeping[true])
    #expect(removed.keys.sorted() == kept.keys.sorted())
    for (key, raw) in removed {
      let whole = try #require(kept[key])
      #expect(raw.count <= whole.count)
      let format = try #require(
        LegacyInputFormat(rawValue: String(key.prefix { $0 != "#" })))
      let (lhs, rhs) = (
        try StoredRecordDecoder.response(of: raw, format: format),
        try StoredRecordDecoder.response(of: whole, format: format)
      )
      #expect(lhs == rhs, "\(key)")
    }
  }

  @Test(
    "the same files count as ingested only while every usable response has a current compact copy; ingesting them again restores the copies"
  )
  func compactCopiesRestored() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory.appendingPathComponent("store.sqlite").path
    let store = try MigrationStore(path: path, now: { 0 })
    defer { try? store.close() }
    let options = IngestOptions(
      paths: [legacyDirectory.appendingPathComponent("handmade").path],
      catalog: ProductCatalog())
    let stage = IngestStage(store: store, options: options, now: SteppingClock().now)
    #expect(try !stage.inputsAreAlreadyIngested())
    _ = try stage.run()
    #expect(try stage.inputsAreAlreadyIngested())
    let format = CompactResponse.formatVersion
    #expect(try !store.hasResponsesWithoutCompactCopy(format: format))

    // As a store written before schema version 8 would be.
    let database = try SQLiteDatabase(location: .path(path))
    try database.execute("DELETE FROM compact_responses")
    try database.close()
    #expect(try store.hasResponsesWithoutCompactCopy(format: format))
    #expect(try !stage.inputsAreAlreadyIngested())
    let again = try stage.run()
    #expect(again.newRecords == 0 && again.alreadyStored == 27)
    #expect(try !store.hasResponsesWithoutCompactCopy(format: format))
    #expect(try stage.inputsAreAlreadyIngested())
  }

  @Test("counts reconcile with bad input, and quarantine is stored once however often it is read")
  func badInput() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("mixed.ndjson")
    try Data(
      """
      {"account_id": "a", "response": {"status": 0, "receipt": {"request_date_ms": "1718452800000", "in_app": [{"transaction_id": "2", "original_transaction_id": "1", "product_id": "p", "purchase_date_ms": "1718000000000"}]}}}
      {"account_id": "b", "response": {"status": 0, "receipt": {"in_app": [
      [1, 2]
      {"account_id": "c", "response": {"status": 21002}}

      """.utf8
    ).write(to: file)
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let options = IngestOptions(paths: [file.path], batchRecords: 1)
    for _ in 0..<2 {
      let summary = try IngestStage(store: store, options: options, now: SteppingClock().now).run()
      #expect(summary.recordsRead == summary.accepted + summary.quarantined)
      #expect(summary.accepted == 2 && summary.quarantined == 2)
      #expect(summary.quarantinedByReason == [.truncatedJSON: 1, .notAnObject: 1])
      #expect(summary.quarantineSamples.map(\.position.line) == [2, 3])
      #expect(summary.totals.quarantinedByReason == ["truncated JSON": 1, "not a JSON object": 1])
      #expect(summary.totals.accounts == 2)
      #expect(summary.totals.accountsWithoutIds == 1)
      #expect(summary.totals.oldEntitlementsByStatus == ["active": 1])
    }
  }

  @Test("a damaged record is kept partial: counted apart, its fields stored, named by compare")
  func partialRecord() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("damaged.ndjson")
    let masked =
      #"{"account_id": "p", "response": {"status": 0, "receipt": {"request_date_ms": "1718452800000", "item_id": "*****", "in_app": [{"transaction_id": "2", "original_transaction_id": "1", "product_id": "p", "purchase_date_ms": "1718000000000"}]}, "pending_renewal_info": [{"original_transaction_id": "37xxxxxxxxx89"}]}}"#
    // First the damaged record is cut short (quarantined), then mended: the quarantine entry
    // of that position goes, and the record is kept.
    let before =
      #"{"account_id": "w", "response": {"status": 21002}}"# + "\n"
      + #"{"account_id": "q", "receipt_data": {"not": "a receipt"}}"# + "\n"
    try Data((before + #"{"account_id": "p", "response": {"status": 0, "receipt": {"#).utf8)
      .write(to: file)
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let options = IngestOptions(paths: [file.path], batchRecords: 1)
    let cut = try IngestStage(store: store, options: options, now: SteppingClock().now).run()
    #expect(cut.quarantined == 2 && cut.accepted == 1 && cut.partial == 0)

    try Data((before + masked + "\n").utf8).write(to: file)
    let mended = try IngestStage(store: store, options: options, now: SteppingClock().now).run()
    #expect(mended.recordsRead == mended.accepted + mended.partial + mended.quarantined)
    #expect(mended.accepted == 1 && mended.partial == 1 && mended.quarantined == 1)
    #expect(mended.setAsideByReason == [.masked: 2])
    #expect(
      mended.setAsideSamples.map(\.field.path) == [
        "response.receipt.item_id", "response.pending_renewal_info[0].original_transaction_id",
      ])
    #expect(mended.totals.partialRecords == 1)
    #expect(mended.totals.setAsideByReason == ["masked": 2])
    // The cut-short line's entry is gone; the record with nothing usable stays quarantined.
    #expect(mended.totals.quarantinedByReason == ["wrong type": 1])
    let counts = try store.legacyRecordCounts()
    #expect(counts.accepted == 1 && counts.partial == 1 && counts.quarantined == 1)

    let comparison = try CompareStage(
      store: store,
      options: CompareOptions(asOf: Timestamp(millisecondsSince1970: 1_718_452_800_000))
    ).compare(accountId: "p")
    let record = try #require(comparison.evidence.legacyRecords.first)
    #expect(record.setAside.map(\.reason) == ["masked", "masked"])
    #expect(record.setAside.first?.excerpt == "\"*****\"")
    #expect(comparison.evidence.seedIds.map(\.id) == ["1"])
    #expect(
      comparison.secondaryFindings.contains {
        $0.hasPrefix("2 field(s) of the legacy records were set aside at ingest (2 masked)")
      })
  }

  @Test("app transaction ids are seeds; order ids wait for Look Up Order ID")
  func customerIds() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("ids.csv")
    try Data(
      """
      account_id,original_transaction_id,app_transaction_id,order_id
      a,,704000000000042007,
      b,,,MK5TTTVWJH
      c,1000000712345678,704000000000043007,MQ0000000X
      d,*****,,

      """.utf8
    ).write(to: file)
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let summary = try IngestStage(
      store: store, options: IngestOptions(paths: [file.path]), now: SteppingClock().now
    ).run()
    #expect(summary.accepted == 3 && summary.quarantined == 1)
    #expect(summary.quarantinedByReason == [.masked: 1])
    #expect(try store.accountRecords("a").seeds.map(\.source) == ["app_transaction_id"])
    #expect(try store.accountRecords("b").seeds.isEmpty)
    #expect(try store.accountRecords("b").orders.map(\.orderId) == ["MK5TTTVWJH"])
    #expect(
      try store.accountRecords("c").seeds.map(\.originalTransactionId) == [
        "1000000712345678", "704000000000043007",
      ])
    #expect(try store.orderSeedsNeedingLookup().map(\.orderId) == ["MK5TTTVWJH", "MQ0000000X"])
  }

  @Test("a changed response for an account is stored as a new version and becomes its latest")
  func newVersion() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("a.ndjson")
    func response(expires: Int64, captured: Int64) -> String {
      #"{"account_id": "a", "response": {"status": 0, "receipt": {"request_date_ms": "\#(captured)", "in_app": []}, "latest_receipt_info": [{"transaction_id": "\#(expires)", "original_transaction_id": "1", "product_id": "p", "purchase_date_ms": "\#(expires - 86_400_000 * 30)", "expires_date_ms": "\#(expires)"}]}}"#
    }
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let options = IngestOptions(
      paths: [file.path], asOf: Timestamp(millisecondsSince1970: 1_720_000_000_000))
    try Data(response(expires: 1_719_000_000_000, captured: 1_718_000_000_000).utf8).write(to: file)
    let first = try IngestStage(store: store, options: options, now: SteppingClock().now).run()
    #expect(first.oldEntitlementsAsOfByStatus == ["expired": 1])
    try Data(response(expires: 1_721_000_000_000, captured: 1_719_500_000_000).utf8).write(to: file)
    let second = try IngestStage(store: store, options: options, now: SteppingClock().now).run()
    #expect(second.newRecords == 1)
    #expect(second.totals.records == 2)
    #expect(second.totals.accounts == 1)
    #expect(second.oldEntitlementsAsOfByStatus == ["active": 1])
  }

  @Test("the JSON summary is versioned and complete")
  func jsonSummary() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let options = IngestOptions(paths: [
      legacyDirectory.appendingPathComponent("handmade/seeds.csv").path
    ])
    let summary = try IngestStage(store: store, options: options, now: SteppingClock().now).run()
    let json = try JSONSerialization.jsonObject(
      with: Data(IngestSummaryRenderer.json(summary, style: .pretty).utf8))
    let object = try #require(json as? [String: Any])
    #expect(object["schema_version"] as? Int == 1)
    #expect(object["records_read"] as? Int == 4)
    #expect((object["store"] as? [String: Any])?["distinct_original_transaction_ids"] as? Int == 4)
    #expect((object["accepted_by_kind"] as? [String: Int]) == ["seed": 4])
  }
}
