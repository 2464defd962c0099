import AppStoreSimulator
import Chronology
import Foundation
import LegacyReceipts
import TestDirectories
import Testing

/// One generated world shared by the tests of this file (generation is deterministic).
let sampleWorld = WorldGenerator().generate(accounts: 600, seed: 11)
let sampleExpectations = ExpectedCategoryOracle(world: sampleWorld).evaluate()

@Suite("World generation")
struct WorldGenerationTests {
  @Test(
    "the same seed gives the same bytes (raw receipts: the same signed payload); another seed another world"
  )
  func determinism() throws {
    let first = try directoryContents(WorldGenerator().generate(accounts: 160, seed: 5))
    let second = try directoryContents(WorldGenerator().generate(accounts: 160, seed: 5))
    #expect(first == second)
    #expect(
      first.keys.sorted() == [
        "accounts.csv", "current-entitlements.csv", "expected.csv", "products.csv",
        "receipts.ndjson", "world.json",
      ])
    #expect(
      String(decoding: first["receipts.ndjson"] ?? Data(), as: UTF8.self).contains(
        "receipt_data_payload"))
    let other = try directoryContents(WorldGenerator().generate(accounts: 160, seed: 6))
    #expect(other["receipts.ndjson"] != first["receipts.ndjson"])
  }

  /// The generated files, with each raw receipt replaced by the receipt it holds: ECDSA
  /// signatures are randomised (OpenSSL 3.0 has no deterministic ECDSA), so two generations sign
  /// the same payload with different signature bytes, while what they sign must be identical.
  func directoryContents(_ world: World) throws -> [String: Data] {
    let directory = try TemporaryDirectory.make(prefix: "world")
    defer { TemporaryDirectory.remove(directory) }
    try GeneratedArchive(world: world).write(to: directory.path)
    return try directoryContents(of: directory)
  }

  /// The files of a generated folder, raw receipts replaced by the receipts they hold (see
  /// ``directoryContents(_:)``).
  func directoryContents(of directory: URL) throws -> [String: Data] {
    var contents: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
    where name != "signing" {
      contents[name] = try Data(contentsOf: directory.appendingPathComponent(name))
    }
    let lines = String(decoding: contents["receipts.ndjson"] ?? Data(), as: UTF8.self).split(
      separator: "\n")
    let normalised = try lines.map { line -> String in
      guard let start = line.range(of: "\"receipt_data\":\"") else { return String(line) }
      let rest = line[start.upperBound...]
      let end = try #require(rest.firstIndex(of: "\""))
      let envelope = try #require(Data(base64Encoded: String(rest[..<end])))
      let payload = try AppReceiptReader.read(Array(envelope))
      return String(line[..<start.lowerBound]) + "\"receipt_data_payload\":\""
        + String(reflecting: payload) + "\""
        + String(rest[rest.index(after: end)...])
    }
    contents["receipts.ndjson"] = Data(normalised.joined(separator: "\n").utf8)
    return contents
  }

  @Test("world.json round-trips exactly, and a newer format is refused")
  func worldRoundTrip() throws {
    let bytes = WorldEncoder.encode(sampleWorld)
    let decoded = try WorldDecoder.decode(bytes)
    #expect(decoded == sampleWorld)
    let future = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
      of: "\"format_version\":1", with: "\"format_version\":99")
    #expect(throws: WorldDecoder.Failure.self) {
      _ = try WorldDecoder.decode(Array(future.utf8))
    }
  }

  @Test(
    "transactionReason is PURCHASE for a first purchase, an immediate upgrade and a resubscription, RENEWAL for renewals"
  )
  func transactionReasons() {
    var upgrades = 0
    var resubscriptions = 0
    for customer in sampleWorld.customers {
      let purchases = Dictionary(
        grouping: customer.transactions.filter { $0.kind == .autoRenewable },
        by: \.originalTransactionId)
      for (_, periods) in purchases {
        let ordered = periods.sorted { $0.purchaseDate < $1.purchaseDate }
        #expect(ordered.first?.reason == "PURCHASE")
        for (earlier, later) in zip(ordered, ordered.dropFirst()) {
          if earlier.upgradedAt != nil {
            upgrades += 1
            #expect(later.reason == "PURCHASE", "an immediate upgrade is a purchase")
          } else if let expiry = earlier.expiresDate, later.purchaseDate > expiry,
            later.offer != nil
          {
            // A comeback after a lapse always comes with its offer; a billing recovery without.
            resubscriptions += 1
            #expect(later.reason == "PURCHASE", "a resubscription after a lapse is a purchase")
          } else {
            #expect(later.reason == "RENEWAL")
          }
        }
      }
    }
    #expect(upgrades > 0)
    #expect(resubscriptions > 0)
  }

  @Test("the world has the structure the issue asks for")
  func structure() {
    let accounts = sampleWorld.accounts
    #expect(accounts.count == 600)
    #expect(accounts.contains { $0.customers.count == 2 }, "an account holding two Apple Accounts")
    var accountsPerCustomer: [Int: Int] = [:]
    for account in accounts {
      for customer in account.customers { accountsPerCustomer[customer, default: 0] += 1 }
    }
    #expect(accountsPerCustomer.values.contains(2), "an Apple Account used by two team accounts")
    let transactions = sampleWorld.customers.flatMap(\.transactions)
    #expect(Set(transactions.map(\.kind)) == Set(ProductKind.allCases))
    #expect(transactions.contains { $0.ownership == .familyShared })
    #expect(Set(transactions.compactMap(\.revocation?.kind)) == Set(Revocation.Kind.allCases))
    #expect(transactions.contains { $0.upgradedAt != nil })
    #expect(Set(transactions.compactMap(\.offer?.type)) == [1, 2, 3, 4])
    let intents = Set(
      sampleWorld.customers.flatMap(\.renewals).flatMap(\.events).compactMap(
        \.state.expirationIntent?.rawValue))
    #expect(intents == [1, 2, 3, 4, 5])
    #expect(sampleWorld.customers.contains { $0.environment == .sandbox })
    let styles = Set(accounts.flatMap(\.snapshots).map(\.style))
    #expect(
      styles.isSuperset(of: [
        .modern, .iOS6, .errorStatus, .rawReceipt, .appTransactionIdOnly, .orderIdOnly,
      ]))
    let snapshots = accounts.flatMap(\.snapshots)
    #expect(snapshots.contains { $0.storesAppTransactionId })
    #expect(snapshots.contains { $0.listsOldestFirst })
    #expect(snapshots.contains { $0.holdsUnfinishedConsumables })
  }

  @Test("every legacy record decodes and holds only what was true at its capture instant")
  func legacyRecordsMatchTheWorld() throws {
    let writer = LegacyResponseWriter(world: sampleWorld)
    for account in sampleWorld.accounts {
      for snapshot in account.snapshots
      where ![.rawReceipt, .appTransactionIdOnly, .orderIdOnly].contains(snapshot.style) {
        let text = writer.response(for: snapshot)
        let response = try Array(text.utf8).withUnsafeBytes { try VerifyReceiptDecoder.decode($0) }
          .response
        let customer = sampleWorld.customers[snapshot.customer]
        let truth = Dictionary(
          uniqueKeysWithValues: customer.transactions.map { ($0.transactionId, $0) })
        for transaction in response.mergedTransactions {
          let id = try #require(transaction.transactionId)
          let real = try #require(truth[id], "\(account.id): a transaction the customer never made")
          #expect(real.purchaseDate <= snapshot.capturedAt)
          #expect(transaction.purchaseDate == real.purchaseDate)
          #expect(transaction.productId == real.productId)
          if let cancelled = transaction.cancellationDate {
            let expected = real.upgradedAt ?? real.revocation?.date
            #expect(cancelled == expected && cancelled <= snapshot.capturedAt)
          } else {
            #expect(
              real.revocation(at: snapshot.capturedAt) == nil
                || real.revocation?.kind == .refundProrated)
          }
          if real.ownership == .familyShared {
            #expect((customer.restoredPurchasesAt ?? .distantFuture) <= snapshot.capturedAt)
          }
          // Finished consumables leave the receipt; an unfinished one, bought in the hour
          // before the capture, is still there.
          #expect(
            real.kind != .consumable
              || (snapshot.holdsUnfinishedConsumables
                && snapshot.capturedAt.milliseconds(since: real.purchaseDate)
                  <= Timestamp.millisecondsPerHour)
          )
        }
        if snapshot.style == .modern {
          #expect(response.requestDate == snapshot.capturedAt)
          for renewal in response.pendingRenewalInfo {
            let original = try #require(renewal.originalTransactionId)
            let state = try #require(
              customer.renewals.first { $0.originalTransactionId == original }?.state(
                at: snapshot.capturedAt))
            #expect(renewal.autoRenewStatus == state.autoRenewStatus)
            #expect(renewal.expirationIntent == state.expirationIntent)
          }
        }
      }
    }
  }
}
