import Chronology
import Entitlements
import Foundation
import MigrationStore
import TestDirectories
import Testing

@testable import MigrationPipeline

/// Two account ids can differ in their bytes and still be equal as Swift `String`s: `é` written
/// as one scalar (U+00E9) and as `e` followed by a combining accent (U+0301). The store keeps
/// them apart (SQLite compares bytes), so compare must too: each account gets its own rows of
/// the team table even when the two share a chunk. Kind of evidence: this project's code, on a
/// store written here where every expected row is known.
@Suite("Account ids equal only up to Unicode normalization")
struct EquivalentAccountIdTests {
  static let composed = "jos\u{E9}@example.com"
  static let decomposed = "jose\u{301}@example.com"

  /// A store with both accounts (one stored response each) and a run whose team table gives
  /// only the composed one an active subscription.
  static func store(in directory: URL) throws -> (MigrationStore, runId: String) {
    let store = try MigrationStore(path: directory.appendingPathComponent("s.sqlite").path) {
      0
    }
    let ingest = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
    // The composed account's response is an empty receipt, the other's an error: they classify
    // differently.
    for (line, (accountId, status)) in [(composed, 0), (decomposed, 21010)].enumerated() {
      let raw = Array(
        #"{"line":\#(line),"response":{"status":\#(status),"environment":"Production"}}"#.utf8)
      _ = try store.storeLegacyRecord(
        LegacyRecordRow(
          accountId: accountId, contentSHA256: Array(repeating: UInt8(line), count: 32),
          sourcePath: "in.ndjson", sourceLine: line + 1, sourceOffset: 0, format: "ndjson",
          kind: "response", status: Int64(status), environment: "Production",
          capturedMilliseconds: 1, bundleId: "com.example.app", shape: "modern", raw: raw),
        runId: ingest, now: 1)
    }
    let runId = "run-1"
    try store.beginRun(
      RunRow(
        id: runId, startedMilliseconds: 1, finishedMilliseconds: nil, asOfMilliseconds: 1,
        isSimulated: true, inputs: "{}", summary: nil))
    try store.storeCurrentEntitlements(
      [
        CurrentEntitlementRow(
          accountId: composed, productId: "pro.monthly", status: "active",
          expiresMilliseconds: nil)
      ], runId: runId)
    return (store, runId)
  }

  @Test("the store holds two accounts that Swift counts as one")
  func twoAccounts() throws {
    #expect(Self.composed == Self.decomposed)
    #expect(Array(Self.composed.utf8) != Array(Self.decomposed.utf8))
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let (store, _) = try Self.store(in: directory)
    defer { try? store.close() }
    #expect(try store.accountIds().map { Array($0.utf8) }.count == 2)
  }

  @Test("each account gets its own team-table rows, read through one connection or several")
  func ownRows() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let (store, runId) = try Self.store(in: directory)
    defer { try? store.close() }
    let accountIds = try store.accountIds()
    let options = CompareOptions(
      asOf: Timestamp(millisecondsSince1970: 1_000), storedTableRunId: runId)
    let readers = [try #require(try store.openReader()), try #require(try store.openReader())]
    defer { for reader in readers { try? reader.close() } }
    let chunks = [
      try CompareChunkReader.read(accountIds, from: store, options: options),
      try CompareChunkReader.read(
        accountIds, through: readers.map(ReaderConnection.init(store:)), options: options),
    ]
    for chunk in chunks {
      let products = zip(chunk.records, chunk.table ?? []).map {
        (id: Array($0.accountId.utf8), products: $1.map(\.productId))
      }
      #expect(products.count == 2)
      #expect(products.first { $0.id == Array(Self.composed.utf8) }?.products == ["pro.monthly"])
      #expect(products.first { $0.id == Array(Self.decomposed.utf8) }?.products == [])
    }
  }

  @Test("a report's recount finds no change in a run of both accounts made from the same store")
  func recountSeesNoChange() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let (store, _) = try Self.store(in: directory)
    try store.close()
    let instant = Timestamp(millisecondsSince1970: 1_000)
    let runner = MigrationRunner(
      storePath: directory.appendingPathComponent("s.sqlite").path, appStore: nil,
      options: MigrationRunOptions(
        legacyPaths: [], reportsDirectory: directory.appendingPathComponent("r").path,
        asOf: instant),
      toolVersion: "test", now: { instant })
    let runId = try runner.compare().summary.runId
    let reopened = try MigrationStore(path: directory.appendingPathComponent("s.sqlite").path) {
      0
    }
    defer { try? reopened.close() }
    let categories = try reopened.comparisons(runId: runId, from: "", through: "\u{10FFFF}")
      .map(\.category)
    #expect(Set(categories) == ["no_transaction_id", "legacy_error_status"])
    let recounted = try StoredRun.load(from: reopened, id: runId).recount(store: reopened)
    #expect(recounted.changed.isEmpty)
  }
}
