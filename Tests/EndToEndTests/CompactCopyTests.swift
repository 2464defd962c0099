import AppStoreServerAPI
import Entitlements
import Foundation
import LegacyReceipts
import MigrationPipeline
import MigrationStore
import TestDirectories
import Testing

/// Ingest keeps a compact copy of every usable response and backfill one of every transaction,
/// and compare reads them instead of the verbatim bytes and signed values: the copies must
/// read back as those do, and compare must classify and explain every account the same either
/// way. (Own-code evidence: the verbatim decoding is the reference, and both sides are this
/// project's.)
@Suite("End to end: compact copies of responses and transactions")
struct CompactCopyTests {
  /// Compares these accounts with the run's instant and its stored team table, as the tests
  /// below do before and after they change the copies.
  static func compare(_ accounts: [String], in store: MigrationStore, as result: MigrationOutcome)
    throws -> [AccountComparison]
  {
    try CompareStage(
      store: store,
      options: CompareOptions(
        asOf: result.run.summary.asOf, storedTableRunId: result.run.summary.runId)
    ).compare(accountIds: accounts)
  }

  @Test("every usable response has a compact copy that reads back as its verbatim bytes do")
  func copiesMatchBytes() async throws {
    let (store, _, scratch) = try await CompareReadAheadTests.migratedStore()
    defer { TemporaryDirectory.remove(scratch) }
    defer { try? store.close() }
    var usable = 0
    for accountId in try store.accountIds() {
      let verbatim = try store.accountRecords(accountId).records
      let compact = try store.accountRecords(
        accountId, compactFormat: CompactResponse.formatVersion
      ).records
      for (bytes, copy) in zip(verbatim, compact) {
        guard let raw = bytes.raw else {
          #expect(copy.compact == nil)
          continue
        }
        usable += 1
        let format = try #require(LegacyInputFormat(rawValue: bytes.format))
        let body = try #require(copy.compact, "\(accountId) v\(bytes.version) has no copy")
        #expect(copy.raw == nil)
        #expect(
          try CompactResponse.decode(body)
            == StoredRecordDecoder.response(of: raw, format: format))
      }
    }
    #expect(usable > 50)
  }

  @Test("compare classifies and explains every account the same without the copies")
  func sameWithoutCopies() async throws {
    let (store, result, scratch) = try await CompareReadAheadTests.migratedStore()
    defer { TemporaryDirectory.remove(scratch) }
    defer { try? store.close() }
    let accounts = try store.accountIds()
    let compareAll = { try Self.compare(accounts, in: store, as: result) }
    let withCopies = try compareAll()

    let database = try SQLiteDatabase(
      location: .path(scratch.appendingPathComponent("store.sqlite").path))
    try database.execute("DELETE FROM compact_responses")
    try database.close()
    #expect(
      try store.accountRecords(accounts[0], compactFormat: 1).records.allSatisfy {
        $0.compact == nil
      })
    let withoutCopies = try compareAll()
    #expect(withCopies.map(\.category) == withoutCopies.map(\.category))
    #expect(withCopies.map(\.explanation) == withoutCopies.map(\.explanation))
    #expect(withCopies == withoutCopies)
  }

  @Test(
    "transactions stored without copies are compared from their signed values, get their copies once, and compare the same"
  )
  func transactionCopies() async throws {
    let (store, result, scratch) = try await CompareReadAheadTests.migratedStore()
    defer { TemporaryDirectory.remove(scratch) }
    defer { try? store.close() }
    let format = CompactTransaction.formatVersion
    let accounts = try store.accountIds()
    let compareAll = { try Self.compare(accounts, in: store, as: result) }
    // The backfill stored every transaction with its copy.
    #expect(try store.customersLackingCompactTransactions(format: format).isEmpty)
    let customers = try accounts.flatMap {
      try store.accountRecords($0, compactTransactionFormat: format).customers
    }
    #expect(customers.count > 20)
    #expect(customers.allSatisfy { $0.compactTransactions != nil && $0.transactions.isEmpty })
    let withCopies = try compareAll()

    // As a store upgraded from schema 8 holds them: no copies, no customer marked complete.
    let database = try SQLiteDatabase(
      location: .path(scratch.appendingPathComponent("store.sqlite").path))
    try database.execute(
      "DELETE FROM compact_transactions; UPDATE customers SET compact_transactions_format = NULL")
    try database.close()
    let lacking = try store.customersLackingCompactTransactions(format: format)
    #expect(lacking.count == Set(customers.map(\.row.id)).count)
    let withoutCopies = try compareAll()
    #expect(withCopies == withoutCopies)

    #expect(try TransactionCopyStage(store: store).run() == lacking.count)
    #expect(try TransactionCopyStage(store: store).run() == 0)
    let rebuilt = try accounts.flatMap {
      try store.accountRecords($0, compactTransactionFormat: format).customers
    }
    #expect(rebuilt.map(\.compactTransactions) == customers.map(\.compactTransactions))
    #expect(
      try compareAll() == withCopies)
  }

  @Test(
    "a damaged transaction copy stops compare with the customer named and the fix; cleared, it is built again"
  )
  func damagedTransactionCopy() async throws {
    let (store, result, scratch) = try await CompareReadAheadTests.migratedStore()
    defer { TemporaryDirectory.remove(scratch) }
    defer { try? store.close() }
    let accounts = try store.accountIds()
    let compareAll = { try Self.compare(accounts, in: store, as: result) }
    let intact = try compareAll()

    let path = scratch.appendingPathComponent("store.sqlite").path
    let database = try SQLiteDatabase(location: .path(path))
    let customer = try #require(
      try database.firstRow("SELECT customer_id FROM compact_transactions LIMIT 1") {
        try $0.int64(at: 0)
      })
    try database.execute(
      "UPDATE compact_transactions SET body = x'01ff' WHERE customer_id = \(customer)")
    try database.close()
    let error = #expect(throws: (any Error).self) {
      try compareAll()
    }
    let message = "\(error.map { String(describing: $0) } ?? "")"
    #expect(message.contains("compact copies of customer"))
    #expect(message.contains("WHERE id = \(customer)"))

    let fixing = try SQLiteDatabase(location: .path(path))
    try fixing.execute(
      "UPDATE customers SET compact_transactions_format = NULL WHERE id = \(customer)")
    try fixing.close()
    #expect(
      try compareAll() == intact)
    #expect(try TransactionCopyStage(store: store).run() == 1)
    #expect(
      try compareAll() == intact)
  }
}
