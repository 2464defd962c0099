import Foundation
import MigrationStore
import Testing

@Suite("MigrationStore legacy tables")
struct LegacySchemaTests {
  func makeRow(account: String = "acct-1", bytes: String = #"{"status":0}"#) -> LegacyRecordRow {
    let raw = Array(bytes.utf8)
    return LegacyRecordRow(
      accountId: account,
      contentSHA256: Array(raw.prefix(32)) + Array(repeating: 0, count: max(0, 32 - raw.count)),
      sourcePath: "in.ndjson", sourceLine: 1, sourceOffset: 0, format: "ndjson", kind: "response",
      status: 0,
      environment: "Production", capturedMilliseconds: 1_718_452_800_000,
      bundleId: "com.example.app",
      shape: "modern", raw: raw)
  }

  @Test(
    "stores a record once; the same bytes again are recognised, changed bytes become a new version")
  func idempotentVersions() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let run = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
    let first = try store.storeLegacyRecord(makeRow(), runId: run, now: 1)
    #expect(first == .inserted(id: first.recordId, version: 1))
    #expect(
      try store.storeLegacyRecord(makeRow(), runId: run, now: 2)
        == .alreadyStored(id: first.recordId))
    let changed = try store.storeLegacyRecord(
      makeRow(bytes: #"{"status":21010}"#), runId: run, now: 3)
    #expect(changed == .inserted(id: changed.recordId, version: 2))
    let other = try store.storeLegacyRecord(makeRow(account: "acct-2"), runId: run, now: 4)
    #expect(other == .inserted(id: other.recordId, version: 1))
    let totals = try store.legacyTotals()
    #expect(totals.accounts == 2)
    #expect(totals.records == 3)
  }

  @Test("raw receipts without a seed id are counted as pending; one with a seed is not")
  func pendingRawReceipts() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let run = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
    var ids: [Int64] = []
    for (account, bytes) in [("acct-1", "MIIraw1"), ("acct-2", "MIIraw2"), ("acct-3", "MIIraw3")] {
      var row = makeRow(account: account, bytes: bytes)
      row.kind = "raw_receipt"
      row.status = nil
      ids.append(try store.storeLegacyRecord(row, runId: run, now: 1).recordId)
    }
    try store.storeSeeds(
      [SeedRow(originalTransactionId: "1000000000000001", source: "raw_receipt", environment: nil)],
      accountId: "acct-2", recordId: ids[1])
    #expect(try store.legacyTotals().rawReceiptsPending == 2)
  }

  @Test("seeds, verdicts and quarantine entries are idempotent, and the totals count them")
  func totals() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let run = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
    let id = try store.storeLegacyRecord(makeRow(), runId: run, now: 1).recordId
    let seeds = [
      SeedRow(
        originalTransactionId: "1000000000000001", source: "latest_receipt_info",
        environment: "Production"),
      SeedRow(
        originalTransactionId: "1000000000000002", source: "in_app", environment: "Production"),
    ]
    try store.storeSeeds(seeds, accountId: "acct-1", recordId: id)
    try store.storeSeeds(seeds, accountId: "acct-1", recordId: id)
    var verdict = OldEntitlementRow(
      asOfMilliseconds: 1_718_452_800_000, basis: "capture", entitlementKey: "group:1",
      kind: "auto_renewable",
      status: "active", isEntitled: true, reason: "active until then")
    verdict.productId = "p"
    try store.storeOldEntitlements([verdict], recordId: id, asOfMilliseconds: 1_718_452_800_000)
    try store.storeOldEntitlements([verdict], recordId: id, asOfMilliseconds: 1_718_452_800_000)
    let bad = QuarantineRow(
      sourcePath: "in.ndjson", sourceLine: 2, sourceOffset: 13,
      contentSHA256: Array(repeating: 7, count: 32),
      reason: "truncated JSON", detail: "…", excerpt: "{")
    #expect(try store.storeQuarantine(bad, runId: run))
    #expect(try !store.storeQuarantine(bad, runId: run))
    let totals = try store.legacyTotals()
    #expect(totals.distinctOriginalTransactionIds == 2)
    #expect(totals.accountsWithoutIds == 0)
    #expect(totals.recordsByEnvironment == ["Production": 1])
    #expect(totals.responsesByStatus == [0: 1])
    #expect(totals.quarantinedByReason == ["truncated JSON": 1])
    #expect(totals.oldEntitlementsByStatus == ["active": 1])
    #expect(
      try store.latestOldEntitlementsByStatus(asOfMilliseconds: 1_718_452_800_000) == ["active": 1])
  }

  @Test("a database written by a newer receipt-migrate is refused with the versions named")
  func newerSchema() throws {
    try TemporaryDirectory.with(prefix: "store") { directory in
      let path = "\(directory)/state.sqlite"
      try MigrationStore(path: path, now: { 0 }).close()
      let raw = try SQLiteDatabase(location: .path(path))
      try raw.run(
        "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)", binding: 99,
        "from the future",
        Int64(0))
      try raw.close()
      #expect {
        try MigrationStore(path: path, now: { 0 })
      } throws: { error in
        "\(error)".contains("schema 99") && "\(error)".contains("upgrade receipt-migrate")
      }
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
      #expect(MigrationStore.schemaVersion == 16)
    }
  }
}
