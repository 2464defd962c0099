import MigrationStore
import Testing

/// What the store does with compact copies of responses: kept beside the verbatim bytes, read
/// instead of them when their format is the one asked for, and added when the same bytes are
/// ingested again. (Checks of our store against itself.)
@Suite("MigrationStore compact copies")
struct CompactCopyStorageTests {
  static func row(
    account: String = "acct-1", bytes: String = #"{"status":0}"#, status: Int64? = 0,
    compact: CompactCopy? = nil
  ) -> LegacyRecordRow {
    let raw = Array(bytes.utf8)
    return LegacyRecordRow(
      accountId: account,
      contentSHA256: Array(raw.prefix(32)) + Array(repeating: 0, count: max(0, 32 - raw.count)),
      sourcePath: "in.ndjson", sourceLine: 1, sourceOffset: 0, format: "ndjson", kind: "response",
      status: status, environment: "Production", capturedMilliseconds: 1_718_452_800_000,
      bundleId: "com.example.app", shape: "modern", raw: raw, compact: compact)
  }

  @Test("a usable response's compact copy of the format asked for comes instead of its bytes")
  func readInsteadOfBytes() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let run = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
    _ = try store.storeLegacyRecord(
      Self.row(compact: CompactCopy(format: 3, body: [3, 1, 2])), runId: run, now: 1)
    _ = try store.storeLegacyRecord(
      Self.row(bytes: #"{"status":21006,"x":1}"#, status: 21006), runId: run, now: 1)
    _ = try store.storeLegacyRecord(
      Self.row(bytes: #"{"status":21010}"#, status: 21010), runId: run, now: 1)

    let current = try store.accountRecords("acct-1", compactFormat: 3).records
    #expect(current.map(\.version) == [1, 2, 3])
    #expect(current[0].compact == [3, 1, 2])
    #expect(current[0].raw == nil)
    // No copy: the verbatim bytes. Not usable (21010): neither.
    #expect(current[1].compact == nil)
    #expect(current[1].raw == Array(#"{"status":21006,"x":1}"#.utf8))
    #expect(current[2].compact == nil && current[2].raw == nil)

    for format in [nil, 4] {
      let records = try store.accountRecords("acct-1", compactFormat: format).records
      #expect(records[0].compact == nil)
      #expect(records[0].raw == Array(#"{"status":0}"#.utf8))
    }
  }

  @Test("the same bytes ingested again add a missing copy and replace one of another format")
  func addedOnReingest() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    let run = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
    let first = try store.storeLegacyRecord(Self.row(), runId: run, now: 1)
    #expect(try store.accountRecords("acct-1", compactFormat: 1).records[0].compact == nil)

    let again = try store.storeLegacyRecord(
      Self.row(compact: CompactCopy(format: 1, body: [1, 9])), runId: run, now: 2)
    #expect(again == .alreadyStored(id: first.recordId))
    #expect(try store.accountRecords("acct-1", compactFormat: 1).records[0].compact == [1, 9])

    _ = try store.storeLegacyRecord(
      Self.row(compact: CompactCopy(format: 2, body: [2, 7])), runId: run, now: 3)
    #expect(try store.accountRecords("acct-1", compactFormat: 2).records[0].compact == [2, 7])
    #expect(try store.accountRecords("acct-1", compactFormat: 1).records[0].compact == nil)
    #expect(try store.legacyTotals().records == 1)
  }

  @Test("an account's records are listed from the covering index, not the table's pages")
  func coveringIndex() throws {
    try TemporaryDirectory.with { directory in
      let path = directory + "/store.sqlite"
      try MigrationStore(path: path, now: { 0 }).close()
      let database = try SQLiteDatabase(location: .path(path))
      defer { try? database.close() }
      var plan: [String] = []
      try database.forEachRow(
        """
        EXPLAIN QUERY PLAN
        SELECT r.id, r.version, r.kind, r.source_path, r.source_line, r.status, r.environment,
          r.captured_ms, r.format, c.format, c.body
        FROM legacy_records r LEFT JOIN compact_responses c ON c.record_id = r.id
        WHERE r.account_id = ? ORDER BY r.version
        """, binding: "acct-1"
      ) { plan.append(try $0.string(at: 3)) }
      #expect(
        plan.contains { $0.contains("COVERING INDEX legacy_records_by_account_version") },
        "\(plan)")
    }
  }
}
