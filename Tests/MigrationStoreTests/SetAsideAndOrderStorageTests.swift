import MigrationStore
import Testing

/// What the store keeps of partial records and order ids: the set-aside fields with their
/// records, the counts summaries show, the order ids awaiting Look Up Order ID and the seeds a
/// valid order gives, and the upgrade of a store of version 14. (Checks of our store against
/// itself.)
@Suite("MigrationStore set-aside fields and order ids")
struct SetAsideAndOrderStorageTests {
  static func partialRow(account: String = "acct-1", orderId: String? = nil) -> LegacyRecordRow {
    var row = CompactCopyStorageTests.row(
      account: account, bytes: #"{"status":0,"pending_renewal_info":[{"x":"37xxx89"}]}"#)
    row.setAside = [
      SetAsideFieldRow(
        path: "response.pending_renewal_info[0].original_transaction_id", reason: "masked",
        detail: "original_transaction_id is masked ('37xxx89')", excerpt: "37xxx89",
        byteOffset: 40),
      SetAsideFieldRow(
        path: "response.receipt.item_id", reason: "masked", detail: "the value is masked",
        excerpt: "\"*****\"", byteOffset: nil),
    ]
    row.orderId = orderId
    return row
  }

  @Test("a partial record keeps its set-aside fields in order, and counts apart")
  func setAsideFields() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let run = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
    _ = try store.storeLegacyRecord(CompactCopyStorageTests.row(), runId: run, now: 1)
    _ = try store.storeLegacyRecord(Self.partialRow(), runId: run, now: 1)
    // The same bytes again: nothing new, and the fields are not stored twice.
    _ = try store.storeLegacyRecord(Self.partialRow(), runId: run, now: 2)

    let records = try store.accountRecords("acct-1").records
    #expect(records.map(\.setAside.count) == [0, 2])
    #expect(
      records[1].setAside.map(\.path) == [
        "response.pending_renewal_info[0].original_transaction_id", "response.receipt.item_id",
      ])
    #expect(records[1].setAside.first?.byteOffset == 40)
    let counts = try store.legacyRecordCounts()
    #expect(counts.accepted == 1 && counts.partial == 1 && counts.quarantined == 0)
    let totals = try store.legacyTotals()
    #expect(totals.records == 2)
    #expect(totals.partialRecords == 1)
    #expect(totals.setAsideByReason == ["masked": 2])
  }

  @Test("order ids wait for Look Up Order ID; a valid one gives seeds, a failed one is asked again")
  func orders() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let run = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
    let first = try store.storeLegacyRecord(
      Self.partialRow(account: "acct-1", orderId: "MK5TTTVWJH"), runId: run, now: 1)
    _ = try store.storeLegacyRecord(
      Self.partialRow(account: "acct-2", orderId: "MQ0000000X"), runId: run, now: 1)
    #expect(try store.orderSeedsNeedingLookup().map(\.orderId) == ["MK5TTTVWJH", "MQ0000000X"])

    let waiting = try store.orderSeedsNeedingLookup()
    try store.storeOrderOutcome(
      OrderOutcomeRow(
        orderId: "MK5TTTVWJH", outcome: "valid", environment: "Production",
        transactionIds: ["2000000000000001", "2000000000000002"], lastError: nil),
      namedBy: waiting.filter { $0.orderId == "MK5TTTVWJH" }, now: 5)
    try store.storeOrderOutcome(
      OrderOutcomeRow(
        orderId: "MQ0000000X", outcome: "failed", environment: "Production", transactionIds: [],
        lastError: "HTTP 500"),
      namedBy: waiting.filter { $0.orderId == "MQ0000000X" }, now: 5)

    #expect(try store.orderSeedsNeedingLookup().map(\.orderId) == ["MQ0000000X"])
    let links = try store.seedLinks()
    #expect(links.map(\.originalTransactionId) == ["2000000000000001", "2000000000000002"])
    #expect(links.allSatisfy { $0.accountId == "acct-1" && $0.recordId == first.recordId })
    let account = try store.accountRecords("acct-1")
    #expect(account.seeds.map(\.source) == ["order_id", "order_id"])
    #expect(account.orders.map(\.orderId) == ["MK5TTTVWJH"])
    #expect(account.orders.first?.outcome?.transactionIds.count == 2)
    let other = try store.accountRecords("acct-2")
    #expect(other.orders.first?.outcome?.outcome == "failed")
    #expect(other.orders.first?.outcome?.lastError == "HTTP 500")
  }

  @Test("a store of version 14 is upgraded: its records are whole, and partial ones can follow")
  func upgrade() throws {
    try TemporaryDirectory.with { directory in
      let path = directory + "/state.sqlite"
      let store = try MigrationStore(path: path, now: { 0 })
      let run = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
      _ = try store.storeLegacyRecord(CompactCopyStorageTests.row(), runId: run, now: 1)
      try store.close()
      try SchemaRollback.store(at: path, to: 14)

      let upgraded = try MigrationStore(path: path, now: { 0 })
      #expect(try upgraded.legacyRecordCounts().accepted == 1)
      #expect(try upgraded.accountRecords("acct-1").records.first?.setAside.isEmpty == true)
      let again = try upgraded.beginIngestRun(inputs: "[]", startedMilliseconds: 2)
      _ = try upgraded.storeLegacyRecord(Self.partialRow(), runId: again, now: 2)
      #expect(try upgraded.legacyRecordCounts().partial == 1)
      try upgraded.close()
    }
  }
}
