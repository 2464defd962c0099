import Foundation
import MigrationStore
import Testing

/// The TEMP tables a report orders its accounts in. SQLite's `BINARY` collation does the
/// sorting; the expectation is Swift's byte-by-byte comparison of the same UTF-8, which the
/// in-memory order uses — two independent implementations of one order.
@Suite("MigrationStore display order")
struct DisplayOrderStorageTests {
  /// Ids whose byte order differs from a naive or locale-aware one: case, prefixes, accents
  /// (0xC3 sorts after every ASCII letter), characters beyond the BMP, digits of different
  /// lengths.
  static let awkwardIds = [
    "a", "B", "b", "ab", "a b", "a-b", "é", "e", "z", "Z", "😀", "ｚ", "10", "9", "099", "",
    "acct-0001", "acct-001", "acct-01", "ß", "ss", "\u{1F1EB}\u{1F1F7}", "e\u{301}x", "f",
    // Canonically equivalent, so equal as Swift strings, but different bytes: byte order
    // decides, never Unicode equivalence.
    "\u{00C5}", "A\u{030A}",
  ]

  @Test("rows come back sorted by rank, then shown id byte by byte, then account id, page by page")
  func sortsAndPages() throws {
    try TemporaryDirectory.with { directory in
      let path = directory + "/store.sqlite"
      try MigrationStore(path: path, now: { 0 }).close()
      // Read-only, as `report` opens the store: TEMP tables are still writable.
      let store = try MigrationStore(path: path, readOnly: true, now: { 0 })
      defer { try? store.close() }
      var rows: [DisplayOrderRow] = []
      for (index, id) in Self.awkwardIds.enumerated() {
        for rank in [0, 3] {
          // Shown ids collide on purpose: the account id settles the order.
          let shown = Self.awkwardIds[(index * 7) % Self.awkwardIds.count]
          rows.append(DisplayOrderRow(rank: rank, shownId: shown, accountId: id + "#\(rank)"))
        }
      }
      try store.resetDisplayOrder()
      // Written out of order (a fixed permutation), a few at a time.
      let permuted = rows.indices.map { rows[($0 * 7) % rows.count] }
      for part in permuted.chunked(5) { try store.appendDisplayOrder(part) }
      let expected = rows.sorted { lhs, rhs in
        if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
        if !lhs.shownId.utf8.elementsEqual(rhs.shownId.utf8) {
          return lhs.shownId.utf8.lexicographicallyPrecedes(rhs.shownId.utf8)
        }
        return lhs.accountId.utf8.lexicographicallyPrecedes(rhs.accountId.utf8)
      }
      for pageSize in [1, 3, 1_000] {
        var read: [DisplayOrderRow] = []
        while true {
          let page = try store.displayOrder(after: read.last, limit: pageSize)
          #expect(page.count <= pageSize)
          guard !page.isEmpty else { break }
          read += page
        }
        // Compared as bytes: `==` on strings would not tell equivalent ids apart.
        #expect(
          read.map {
            [$0.rank] + $0.shownId.utf8.map(Int.init) + [-1] + $0.accountId.utf8.map(Int.init)
          }
            == expected.map {
              [$0.rank] + $0.shownId.utf8.map(Int.init) + [-1] + $0.accountId.utf8.map(Int.init)
            }, "page size \(pageSize)")
      }
      try store.resetDisplayOrder()
      #expect(try store.displayOrder(after: nil, limit: 10).isEmpty, "reset empties it")
    }
  }

  @Test(
    "recounted classifications and a run's stored ones page in account order, an empty id first")
  func classificationPages() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    defer { try? store.close() }
    let ids = Self.awkwardIds
    try store.resetRecountedClassifications()
    try store.appendRecountedClassifications(ids.reversed().map { ($0, "match") })
    try store.runLedger.begin(
      RunRow(
        id: "r1", startedMilliseconds: 1, finishedMilliseconds: nil, asOfMilliseconds: 1,
        isSimulated: true, inputs: "{}", summary: nil))
    try store.appendComparisons(
      ids.map {
        ComparisonRow(
          accountId: $0, category: "gain", tableCategory: nil, cause: nil, explanation: "")
      }, runId: "r1")
    let sortedIds = ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { Array($0.utf8) }
    func walk(_ page: (String?) throws -> [(accountId: String, category: String)]) throws
      -> [[UInt8]]
    {
      var read: [[UInt8]] = []
      var after: String?
      while true {
        let next = try page(after)
        guard let last = next.last else { return read }
        read += next.map { Array($0.accountId.utf8) }
        after = last.accountId
      }
    }
    #expect(try walk { try store.recountedClassifications(after: $0, limit: 4) } == sortedIds)
    #expect(try walk { try store.classifications(runId: "r1", after: $0, limit: 4) } == sortedIds)
    #expect(try store.classifications(runId: "r2", after: nil, limit: 4).isEmpty)
    // A range in the store's byte order whose bounds Swift orders the other way round (it
    // compares normalized scalars: é, U+00E9, after f): no `ClosedRange` could hold it.
    let first = "e\u{301}x"
    #expect(!(first < "f"), "Swift orders the bounds the other way round")
    #expect(
      try store.comparisons(runId: "r1", from: first, through: "f").map(\.accountId) == [
        first, "f",
      ])
  }

  @Test("account ids page in order and the count matches")
  func accountPages() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    defer { try? store.close() }
    #expect(try store.accountCount() == 0)
    #expect(try store.accountIds(after: nil, limit: 3).isEmpty)
    let run = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
    for id in Self.awkwardIds {
      _ = try store.storeLegacyRecord(
        LegacyRecordRow(
          accountId: id, contentSHA256: Array(repeating: 1, count: 32), sourcePath: "in.ndjson",
          sourceLine: 1, sourceOffset: 0, format: "ndjson", kind: "response", status: 0,
          environment: "Production", capturedMilliseconds: 1, bundleId: "com.example.app",
          shape: "modern", raw: [0x7B, 0x7D], compact: nil),
        runId: run, now: 1)
    }
    #expect(try store.accountCount() == Self.awkwardIds.count)
    var read: [[UInt8]] = []
    var after: String?
    while true {
      let page = try store.accountIds(after: after, limit: 5)
      guard let last = page.last else { break }
      read += page.map { Array($0.utf8) }
      after = last
    }
    #expect(
      read == Self.awkwardIds.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
    #expect(read.count == Self.awkwardIds.count, "no id skipped or repeated")
  }
}

extension Array {
  fileprivate func chunked(_ size: Int) -> [[Element]] {
    stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min(count, $0 + size)]) }
  }
}
