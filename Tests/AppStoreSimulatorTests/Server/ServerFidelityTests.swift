import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import CryptoSupport
import Foundation
import JSON
import Testing

/// The simulator answers as Apple documents, where an earlier version did not (issue 14 of the
/// tracker). These tests check the simulator against this project's reading of Apple's
/// documentation; the conformance test checks the same behaviour through Apple's own library.
@Suite("Simulator server: Apple's documented shapes")
struct ServerFidelityTests {
  typealias World = HandBuiltWorld

  /// The signed transactions of every page of a history walk over raw HTTP.
  func walk(_ harness: SimulatorHarness, _ path: String, query: String = "") async throws
    -> [JWSTransaction]
  {
    var transactions: [JWSTransaction] = []
    var revision: String?
    let verifier = harness.client.verifier(for: .production)
    repeat {
      var parameters = query
      if let revision {
        let encoded =
          revision.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? revision
        parameters += (parameters.isEmpty ? "" : "&") + "revision=\(encoded)"
      }
      let answer = try await harness.raw(
        "GET", path + (parameters.isEmpty ? "" : "?" + parameters))
      try #require(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
      let value = try JSONValue(parsing: answer.body)
      if case .array(let items)? = value["signedTransactions"] {
        for case .string(let jws) in items {
          transactions.append(try verifier.verifyTransaction(jws).payload)
        }
      }
      revision = value["hasMore"]?.boolValue == true ? value["revision"]?.stringValue : nil
    } while revision != nil
    return transactions
  }

  @Test("history v1 is served like v2 but leaves out consumables that were not revoked")
  func historyVersionOne() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let v2 = try await walk(harness, "/inApps/v2/history/\(World.subscriptionOriginal)")
    let v1 = try await walk(harness, "/inApps/v1/history/\(World.subscriptionOriginal)")
    #expect(v2.count == World.subscriber.transactions.count)
    #expect(
      Set(v1.compactMap(\.transactionId))
        == Set(v2.compactMap(\.transactionId)).subtracting([World.consumableId]))
    #expect(v1.contains { $0.transactionId == World.refundedConsumableId }, "revoked stays")
    // The same filters and order as v2; a v2 revision does not continue a v1 walk.
    let filtered = try await walk(
      harness, "/inApps/v1/history/\(World.subscriptionOriginal)",
      query: "productType=CONSUMABLE&sort=DESCENDING")
    #expect(filtered.compactMap(\.transactionId) == [World.refundedConsumableId])
    let page = try await harness.client.transactionHistory(
      World.subscriptionOriginal, environment: .production)
    let revision = try #require(
      page.revision?.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
    let crossed = try await harness.raw(
      "GET", "/inApps/v1/history/\(World.subscriptionOriginal)?revision=\(revision)")
    #expect(SimulatorHarness.errorCode(of: crossed) == 4_000_005)
  }

  @Test("the revoked filter takes the spellings Apple's libraries send (True, False)")
  func revokedSpellings() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let path = "/inApps/v2/history/\(World.subscriptionOriginal)"
    let revoked = try await walk(harness, path, query: "revoked=True")
    #expect(
      Set(revoked.compactMap(\.transactionId))
        == [World.refundedConsumableId, String(2_000_000_000_100_001 + 20)])
    let lower = try await walk(harness, path, query: "revoked=true")
    #expect(lower.count == revoked.count)
    let kept = try await walk(harness, path, query: "revoked=False")
    #expect(kept.count == World.subscriber.transactions.count - revoked.count)
    let wrong = try await harness.raw("GET", path + "?revoked=yes")
    #expect(SimulatorHarness.errorCode(of: wrong) == 4_000_030)
  }

  @Test("every renewal info carries renewalDate; every refund revocationPercentage")
  func renewalDateAndRevocationPercentage() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let statuses = try await harness.client.allSubscriptionStatuses(
      World.subscriptionOriginal, environment: .production)
    let entries = statuses.groups.flatMap(\.lastTransactions)
    #expect(!entries.isEmpty)
    for entry in entries {
      #expect(
        entry.renewalInfo.payload.renewalDate == entry.transaction.payload.expiresDate,
        "\(entry.originalTransactionId)")
    }
    let full = try await harness.client.transactionInfo(
      World.refundedConsumableId, environment: .production)
    #expect(full.payload.revocationType == .refundFull)
    #expect(full.payload.revocationPercentage == 100_000)
    let prorated = try await harness.client.transactionInfo(
      String(2_000_000_000_100_001 + 20), environment: .production)
    #expect(prorated.payload.revocationType == .refundProrated)
    #expect(prorated.payload.revocationPercentage == 40_000)
  }

  @Test("an app transaction carries receiptCreationDate and no signedDate, and verifies")
  func appTransactionWithoutSignedDate() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let app = try #require(
      try await harness.client.appTransactionInfo(
        World.subscriptionOriginal, environment: .production))
    #expect(app.payload.signedDate == nil)
    #expect(app.payload.receiptCreationDate == World.now)
    let payload = try #require(app.jws.split(separator: ".").dropFirst().first)
    let members = try JSONValue(parsing: Base64URL.decode(payload))
    #expect(members["signedDate"] == nil)
  }
}
