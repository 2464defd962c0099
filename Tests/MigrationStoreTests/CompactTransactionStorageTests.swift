import Foundation
import MigrationStore
import Testing

/// Schema version 9 keeps a compact copy of each transaction by customer, and a customer's
/// copies stand in for its signed values only while every one of its transactions has a copy of
/// the version asked for. The store keeps bytes it is given, so these tests use arbitrary bytes
/// (own-code evidence: the store against itself).
@Suite("MigrationStore compact copies of transactions")
struct CompactTransactionStorageTests {
  static let format = 4

  /// A store with one account and one customer claimed with copies of `format`.
  func makeStore(at directory: String, claimedWith format: Int? = Self.format) throws
    -> (store: MigrationStore, customer: Int64)
  {
    let store = try MigrationStore(path: directory + "/state.sqlite", now: { 0 })
    try Self.addAccounts(["acct-1", "acct-2"], to: store)
    let customer = try store.claimCustomer(
      key: "Production:1", appTransactionId: nil, environment: "Production",
      walkTransactionId: "1", now: 1, compactFormat: format
    ).row
    try store.linkAccount("acct-1", toCustomer: customer.id)
    #expect(customer.compactTransactionsFormat == format)
    return (store, customer.id)
  }

  /// Accounts, each with one stored response (what makes an account).
  static func addAccounts(_ accountIds: [String], to store: MigrationStore) throws {
    let run = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
    for (line, accountId) in accountIds.enumerated() {
      let raw = Array(#"{"status":0,"account":"\#(accountId)"}"#.utf8)
      _ = try store.storeLegacyRecord(
        LegacyRecordRow(
          accountId: accountId, contentSHA256: Array(raw.prefix(32)),
          sourcePath: "in.ndjson", sourceLine: line + 1, sourceOffset: 0, format: "ndjson",
          kind: "response", status: 0, environment: "Production", capturedMilliseconds: 1,
          bundleId: "com.example.app", shape: "modern", raw: raw),
        runId: run, now: 1)
    }
  }

  static func row(_ id: String, signed: Int64, copy: [UInt8]?, format: Int = format)
    -> TransactionRow
  {
    var row = TransactionRow(transactionId: id, jws: "h.payload-\(id)-\(signed).sig")
    row.signedMilliseconds = signed
    row.compact = copy.map { CompactCopy(format: format, body: $0) }
    return row
  }

  func customer(_ store: MigrationStore, format: Int = format) throws -> AccountRecords.Customer {
    try #require(
      try store.accountRecords("acct-1", compactTransactionFormat: format).customers.first)
  }

  @Test("a customer's copies come back by transaction id in place of its signed values")
  func copiesStandIn() throws {
    try TemporaryDirectory.with { directory in
      let (store, customerId) = try makeStore(at: directory)
      defer { try? store.close() }
      try store.storeHistoryPage(
        [Self.row("2", signed: 1, copy: [2]), Self.row("1", signed: 1, copy: [1])],
        customerId: customerId, revision: "r1", isLast: true, now: 2)
      let read = try customer(store)
      #expect(read.compactTransactions == [[1], [2]])
      #expect(read.transactions.isEmpty)
      // Another version asked for: the signed values.
      let other = try customer(store, format: Self.format + 1)
      #expect(other.compactTransactions == nil)
      #expect(other.transactions.map(\.whole) == ["h.payload-1-1.sig", "h.payload-2-1.sig"])
      #expect(try store.customersLackingCompactTransactions(format: Self.format).isEmpty)
      #expect(try store.customersLackingCompactTransactions(format: 9) == [customerId])
    }
  }

  @Test("an older copy of a transaction leaves its copy; a newer one replaces it")
  func olderAndNewer() throws {
    try TemporaryDirectory.with { directory in
      let (store, customerId) = try makeStore(at: directory)
      defer { try? store.close() }
      try store.storeHistoryPage(
        [Self.row("1", signed: 5, copy: [5])], customerId: customerId, revision: "r1",
        isLast: true, now: 2)
      try store.storeRefreshPage(
        [Self.row("1", signed: 4, copy: [4])], customerId: customerId, revision: "r2",
        isLast: true, now: 3)
      #expect(try customer(store).compactTransactions == [[5]])
      try store.storeRefreshPage(
        [Self.row("1", signed: 6, copy: [6])], customerId: customerId, revision: "r3",
        isLast: true, now: 4)
      #expect(try customer(store).compactTransactions == [[6]])
    }
  }

  @Test(
    "a transaction stored without a copy, or with one of another version, sends the customer back to its signed values until its copies are replaced"
  )
  func incompleteCopies() throws {
    for missing in [nil, [UInt8]([9])] {
      try TemporaryDirectory.with { directory in
        let (store, customerId) = try makeStore(at: directory)
        defer { try? store.close() }
        try store.storeHistoryPage(
          [Self.row("1", signed: 1, copy: [1])], customerId: customerId, revision: "r1",
          isLast: false, now: 2)
        try store.storeHistoryPage(
          [Self.row("2", signed: 1, copy: missing, format: Self.format + 1)],
          customerId: customerId, revision: "r2", isLast: true, now: 3)
        let read = try customer(store)
        #expect(read.compactTransactions == nil)
        #expect(read.transactions.count == 2)
        #expect(try store.customersLackingCompactTransactions(format: Self.format) == [customerId])

        let signed = try store.signedTransactions(ofCustomer: customerId)
        #expect(signed.map(\.transactionId) == ["1", "2"])
        #expect(signed.map(\.value.whole) == ["h.payload-1-1.sig", "h.payload-2-1.sig"])
        try store.writeTransaction {
          try store.replaceCompactTransactions(
            [("1", [11]), ("2", [12])], format: Self.format, customerId: customerId)
        }
        #expect(try customer(store).compactTransactions == [[11], [12]])
        #expect(try store.customersLackingCompactTransactions(format: Self.format).isEmpty)
      }
    }
  }

  @Test("customers claimed without a version, as before schema 9, read their signed values")
  func claimedWithout() throws {
    try TemporaryDirectory.with { directory in
      let (store, customerId) = try makeStore(at: directory, claimedWith: nil)
      defer { try? store.close() }
      try store.storeHistoryPage(
        [Self.row("1", signed: 1, copy: [1])], customerId: customerId, revision: "r1",
        isLast: true, now: 2)
      #expect(try customer(store).compactTransactions == nil)
      #expect(try store.customersLackingCompactTransactions(format: Self.format) == [customerId])
    }
  }

  @Test("a transaction Apple lists under another customer takes its copy along")
  func movedTransaction() throws {
    try TemporaryDirectory.with { directory in
      let (store, first) = try makeStore(at: directory)
      defer { try? store.close() }
      let second = try store.claimCustomer(
        key: "Production:2", appTransactionId: nil, environment: "Production",
        walkTransactionId: "2", now: 1, compactFormat: Self.format
      ).row.id
      try store.linkAccount("acct-2", toCustomer: second)
      try store.storeHistoryPage(
        [Self.row("1", signed: 1, copy: [1]), Self.row("2", signed: 1, copy: [2])],
        customerId: first, revision: "r1", isLast: true, now: 2)
      try store.storeHistoryPage(
        [Self.row("2", signed: 2, copy: [22])], customerId: second, revision: "r1", isLast: true,
        now: 3)
      #expect(try customer(store).compactTransactions == [[1]])
      let moved = try #require(
        try store.accountRecords("acct-2", compactTransactionFormat: Self.format).customers.first)
      #expect(moved.compactTransactions == [[22]])
    }
  }
}
