import Foundation
import MigrationStore
import Testing

/// Schema version 6 keeps each distinct JWS header once. These tests check the store against
/// itself (own-code evidence): whatever goes in comes back byte for byte, through the store's
/// readers and through the documented views, while the header is stored once.
@Suite("MigrationStore JWS headers stored once")
struct SignedHeaderStorageTests {
  static let header = "eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlCIiwiTUlJQyJdfQ"
  static let otherHeader = "eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlEIl19"

  /// A store file with one account linked to one customer.
  func makeStore(at directory: String) throws -> (store: MigrationStore, customerId: Int64) {
    let store = try MigrationStore(path: directory + "/state.sqlite", now: { 0 })
    let run = try store.beginIngestRun(inputs: "[]", startedMilliseconds: 1)
    let raw = Array(#"{"status":0}"#.utf8)
    _ = try store.storeLegacyRecord(
      LegacyRecordRow(
        accountId: "acct-1", contentSHA256: raw + Array(repeating: 0, count: 32 - raw.count),
        sourcePath: "in.ndjson", sourceLine: 1, sourceOffset: 0, format: "ndjson",
        kind: "response", status: 0, environment: "Production", capturedMilliseconds: 1,
        bundleId: "com.example.app", shape: "modern", raw: raw),
      runId: run, now: 1)
    let customer = try store.claimCustomer(
      key: "Production:1", appTransactionId: nil, environment: "Production",
      walkTransactionId: "1", now: 1
    ).row
    try store.linkAccount("acct-1", toCustomer: customer.id)
    return (store, customer.id)
  }

  @Test("signed values come back whole, the shared header is stored once, other text is kept whole")
  func roundTrip() throws {
    try TemporaryDirectory.with { directory in
      let (store, customerId) = try makeStore(at: directory)
      let values = [
        "\(Self.header).eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJlLTE",
        "\(Self.header).eyJ0cmFuc2FjdGlvbklkIjoiMiJ9.c2lnbmF0dXJlLTI",
        "\(Self.otherHeader).eyJ0cmFuc2FjdGlvbklkIjoiMyJ9.c2lnbmF0dXJlLTM",
        "not a compact JWS",
        ".starts.with.a.dot",
      ]
      let rows = values.enumerated().map {
        TransactionRow(transactionId: "\($0.offset + 1)", jws: $0.element)
      }
      try store.storeHistoryPage(rows, customerId: customerId, revision: "r1", isLast: true, now: 2)
      var status = StatusRow(
        originalTransactionId: "1", subscriptionGroup: "g", status: 1, transactionJWS: values[0])
      status.renewalJWS = "\(Self.otherHeader).eyJyZW5ld2FsIjp0cnVlfQ.c2ln"
      try store.storeStatuses([status], customerId: customerId, fetchedAt: 2, now: 2)

      let records = try store.accountRecords("acct-1")
      let customer = try #require(records.customers.first)
      #expect(customer.transactions.map(\.whole) == values)
      #expect(
        customer.transactions.map(\.header) == [
          Self.header, Self.header, Self.otherHeader, nil, nil,
        ])
      #expect(customer.transactions.first?.rest == "eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJlLTE")
      #expect(customer.statuses.first?.transaction.whole == values[0])
      #expect(customer.statuses.first?.renewal?.whole == status.renewalJWS)
      try store.close()

      let database = try SQLiteDatabase(location: .path(directory + "/state.sqlite"))
      defer { try? database.close() }
      let headers = try database.firstRow("SELECT count(*) FROM jws_headers") { try $0.int(at: 0) }
      #expect(headers == 2)
      let stored = try database.firstRow("SELECT jws FROM transactions WHERE transaction_id = '1'")
      {
        try $0.string(at: 0)
      }
      #expect(stored == "eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJlLTE")
      var fromView: [String] = []
      try database.forEachRow("SELECT jws FROM transactions_signed ORDER BY transaction_id") {
        fromView.append(try $0.string(at: 0))
      }
      #expect(fromView == values)
      let statusFromView = try database.firstRow(
        "SELECT transaction_jws, renewal_jws FROM subscription_statuses_signed"
      ) { [try $0.string(at: 0), try $0.string(at: 1)] }
      #expect(statusFromView == [values[0], status.renewalJWS ?? ""])
    }
  }

  @Test("a row stored before version 6 (the whole value, no header id) is read whole")
  func rowsFromBeforeVersion6() throws {
    try TemporaryDirectory.with { directory in
      let (store, customerId) = try makeStore(at: directory)
      try store.close()
      let whole = "\(Self.header).eyJvbGQiOnRydWV9.c2ln"
      let database = try SQLiteDatabase(location: .path(directory + "/state.sqlite"))
      try database.run(
        "INSERT INTO transactions (transaction_id, customer_id, jws) VALUES ('9', ?, ?)",
        binding: customerId, whole)
      try database.close()
      let reopened = try MigrationStore(path: directory + "/state.sqlite", now: { 0 })
      defer { try? reopened.close() }
      #expect(
        try reopened.accountRecords("acct-1").customers.first?.transactions == [
          StoredSignedText(whole: whole)
        ])
    }
  }

  @Test("a value naming a header the store does not hold is an error naming the account")
  func missingHeader() throws {
    try TemporaryDirectory.with { directory in
      let (store, customerId) = try makeStore(at: directory)
      try store.close()
      let database = try SQLiteDatabase(location: .path(directory + "/state.sqlite"))
      try database.execute("PRAGMA foreign_keys = OFF")
      try database.run(
        "INSERT INTO transactions (transaction_id, customer_id, jws, jws_header_id) VALUES ('9', ?, 'eyJ9.c2ln', 999)",
        binding: customerId)
      try database.close()
      let reopened = try MigrationStore(path: directory + "/state.sqlite", now: { 0 })
      defer { try? reopened.close() }
      #expect {
        try reopened.accountRecords("acct-1")
      } throws: { error in
        "\(error)".contains("acct-1") && "\(error)".contains("JWS header 999")
      }
    }
  }
}
