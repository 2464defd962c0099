import Foundation
import Testing

@testable import MigrationStore

/// Schema 11: stored responses keep no `latest_receipt`. An older store is upgraded in place:
/// the receipt's value replaced, every other byte and the content hash kept. Evidence: our own
/// code, reading the file back with SQLite.
@Suite("Stored responses without latest_receipt")
struct LatestReceiptRemovalTests {
  static let receipt = String(repeating: "MIIT", count: 2_000)

  static func row(_ account: String, _ text: String, kind: String = "response") -> LegacyRecordRow {
    let raw = Array(text.utf8)
    return LegacyRecordRow(
      accountId: account,
      contentSHA256: Array(raw.prefix(32)) + Array(repeating: 0, count: max(0, 32 - raw.count)),
      sourcePath: "in.ndjson", sourceLine: 1, sourceOffset: 0, format: "ndjson", kind: kind,
      status: kind == "response" ? 0 : nil, environment: nil, capturedMilliseconds: nil,
      bundleId: nil, shape: nil, raw: raw)
  }

  @Test("a store of version 11 is upgraded: each response's receipt goes, the rest stays")
  func upgrade() throws {
    try TemporaryDirectory.with { directory in
      let path = directory + "/state.sqlite"
      let store = try MigrationStore(path: path, now: { 0 })
      let run = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
      let records = [
        (
          "a1",
          #"{"account_id":"a1","response":{"status":0,"latest_receipt":"\#(Self.receipt)","latest_receipt_info":[]}}"#,
          "response"
        ),
        ("a2", #"{"status":21006, "latest_receipt" : "\#(Self.receipt)"}"#, "response"),
        ("a3", #"{"account_id":"a3","response":{"status":21010}}"#, "response"),
        ("a4", #"{"account_id":"a4","receipt_data":"\#(Self.receipt)"}"#, "raw_receipt"),
        ("a5", "a5,1000000000000001", "seed"),
      ]
      var hashes: [String: [UInt8]] = [:]
      for (account, text, kind) in records {
        let row = Self.row(account, text, kind: kind)
        hashes[account] = row.contentSHA256
        _ = try store.storeLegacyRecord(row, runId: run, now: 1)
      }
      try store.close()
      // Back to version 11, the receipts stored whole as before version 12.
      try SchemaRollback.store(at: path, to: 11)

      let upgraded = try MigrationStore(path: path, now: { 0 })
      try upgraded.close()
      let check = try SQLiteDatabase(location: .path(path), mode: .readOnly)
      defer { try? check.close() }
      var stored: [String: (raw: String, hash: [UInt8])] = [:]
      try check.forEachRow("SELECT account_id, raw, content_sha256 FROM legacy_records") { row in
        stored[try row.string(at: 0)] = (
          String(decoding: try row.blob(at: 1), as: UTF8.self), try row.blob(at: 2)
        )
      }
      #expect(
        stored["a1"]?.raw
          == #"{"account_id":"a1","response":{"status":0,"latest_receipt":"<removed>","latest_receipt_info":[]}}"#
      )
      #expect(stored["a2"]?.raw == #"{"status":21006, "latest_receipt" : "<removed>"}"#)
      for (account, text, _) in records where !["a1", "a2"].contains(account) {
        #expect(stored[account]?.raw == text, "\(account)")
      }
      for (account, hash) in hashes { #expect(stored[account]?.hash == hash, "\(account)") }
      #expect(
        try check.firstRow("SELECT MAX(version) FROM schema_version") { try $0.int(at: 0) }
          == MigrationStore.schemaVersion)
    }
  }
}
