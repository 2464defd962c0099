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
    try store.runLedger.begin(
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

  /// A comparison of `accountId` in `category`, with no evidence.
  static func comparison(_ accountId: String, _ category: DiscrepancyCategory)
    -> AccountComparison
  {
    AccountComparison(
      accountId: accountId, category: category, explanation: "", cause: nil, keys: [],
      secondaryFindings: [],
      evidence: AccountEvidence(capturedAt: nil, legacyRecords: [], seedIds: [], customers: []))
  }

  @Test("a team table read into memory keeps the two accounts' rows apart, and compare uses it")
  func tableInMemory() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("table.csv")
    let text =
      "account_id,product_id,status,expires_at\n\(Self.composed),pro.monthly,active,\n"
      + "\(Self.decomposed),pro.yearly,expired,\n"
    try Data(text.utf8).write(to: file)
    let table = try CurrentEntitlementsReader.read(file.path)
    #expect(table.rows.count == 2)
    #expect(table.rows[AccountKey(Self.composed)]?.map(\.productId) == ["pro.monthly"])
    #expect(table.rows[AccountKey(Self.decomposed)]?.map(\.productId) == ["pro.yearly"])

    let (store, _) = try Self.store(in: directory)
    defer { try? store.close() }
    let chunk = try CompareChunkReader.read(
      try store.accountIds(), from: store,
      options: CompareOptions(asOf: Timestamp(millisecondsSince1970: 1_000), table: table.rows))
    let products = zip(chunk.records, chunk.table ?? []).map {
      (id: Array($0.accountId.utf8), products: $1.map(\.productId))
    }
    #expect(products.first { $0.id == Array(Self.composed.utf8) }?.products == ["pro.monthly"])
    #expect(products.first { $0.id == Array(Self.decomposed.utf8) }?.products == ["pro.yearly"])
  }

  @Test("a run's token mapping is stored and read back as two accounts with their own tokens")
  func runTokens() throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let (store, runId) = try Self.store(in: directory)
    defer { try? store.close() }
    var mapping = AccountTokenMapping()
    mapping.add(token: "11111111-1111-4111-8111-111111111111", forAccount: Self.composed)
    mapping.add(token: "22222222-2222-4222-8222-222222222222", forAccount: Self.decomposed)
    try store.storeRunAccountTokens(
      mapping.tokensInAccountOrder,
      runId: runId)
    let stored = try store.runAccountTokens(runId: runId)
    #expect(
      stored.map { Array($0.accountId.utf8) } == [
        Array(Self.decomposed.utf8), Array(Self.composed.utf8),
      ])
    #expect(
      stored.map(\.token) == [
        "22222222-2222-4222-8222-222222222222", "11111111-1111-4111-8111-111111111111",
      ])
  }

  @Test("--fail-on new: looks up each account's own earlier category")
  func failOnNew() throws {
    let policy = try FailOnPolicy(parsing: "new:legacy_error_status")
    var tally = FailOnTally(policy: policy)
    tally.add(Self.comparison(Self.composed, .legacyErrorStatus))
    tally.add(Self.comparison(Self.decomposed, .legacyErrorStatus))
    #expect(tally.accountsNeedingPrevious.count == 2)
    // Only the composed account had the category before: the decomposed one is new.
    var accumulator = RunDifference.Accumulator(
      inputs: RunInputsComparison(primaryComparable: true, tableComparable: false),
      wanted: tally.accountsNeedingPrevious)
    accumulator.add(
      CategoryPairRow(
        accountId: Self.decomposed, category: "legacy_error_status", tableCategory: nil,
        earlierCategory: nil, earlierTableCategory: nil))
    accumulator.add(
      CategoryPairRow(
        accountId: Self.composed, category: "legacy_error_status", tableCategory: nil,
        earlierCategory: "legacy_error_status", earlierTableCategory: nil))
    #expect(accumulator.previous.count == 1)
    #expect(tally.count(previous: accumulator.previous) == 1)
  }

  @Test("backfill links every account holding an id, the two equivalent ones included")
  func seedGroupKeepsBothAccounts() {
    let groups = SeedGroup.groups(from: [
      (accountId: Self.composed, id: "10", recordId: 1, environment: "Production"),
      (accountId: Self.decomposed, id: "10", recordId: 2, environment: "Production"),
      (accountId: Self.decomposed, id: "20", recordId: 2, environment: "Production"),
    ])
    #expect(groups.map(\.ids) == [["10", "20"]])
    #expect(
      groups.first?.accountsById["10"]?.map { Array($0.utf8) } == [
        Array(Self.composed.utf8), Array(Self.decomposed.utf8),
      ])
    #expect(
      groups.first?.accountsById["20"]?.map { Array($0.utf8) } == [
        Array(Self.decomposed.utf8)
      ])
  }
}
