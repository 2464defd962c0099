import AppStoreServerAPI
import AppStoreSimulator
import Foundation
import Testing

@Suite("Simulator server: ids, paths and app account tokens")
struct ServerErrorTests {
  typealias World = HandBuiltWorld

  static let idPaths: [(String, String)] = [
    ("GET", "/inApps/v2/history/%@"),
    ("GET", "/inApps/v1/subscriptions/%@"),
    ("GET", "/inApps/v1/transactions/%@"),
    ("GET", "/inApps/v2/refund/lookup/%@"),
    ("GET", "/inApps/v1/transactions/appTransactions/%@"),
    ("PUT", "/inApps/v1/transactions/%@/appAccountToken"),
  ]

  @Test(
    "a malformed id is 4000006 and an unknown one 4040010 (4040005 for Set App Account Token), on every endpoint",
    arguments: idPaths)
  func ids(_ method: String, _ template: String) async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let body =
      method == "PUT" ? #"{"appAccountToken":"a2c4e6f8-0b1d-4f3a-8c5e-7a9b1c3d5e7f"}"# : nil
    // Apple documents OriginalTransactionIdNotFoundError for the write, where the reads
    // answer TransactionIdNotFoundError.
    let notFound: Int64 = method == "PUT" ? 4_040_005 : 4_040_010
    for (id, status, code) in [
      ("12ab", 400, Int64(4_000_006)), ("999999999999999999999", 400, 4_000_006),
      ("2000000000999999", 404, notFound),
      // A sandbox customer's id asked of production.
      (World.testerTransaction, 404, notFound),
    ] {
      let answer = try await harness.raw(
        method, template.replacingOccurrences(of: "%@", with: id), body: body)
      #expect(answer.status == status, "\(template) \(id)")
      #expect(SimulatorHarness.errorCode(of: answer) == code, "\(template) \(id)")
      #expect(answer[header: "Content-Type"] == "application/json")
    }
  }

  @Test("a path that is no endpoint is 404, a wrong method 405, both in plain text")
  func paths() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let unknown = try await harness.raw("GET", "/inApps/v3/history/\(World.subscriptionOriginal)")
    #expect(unknown.status == 404)
    #expect(unknown[header: "Content-Type"]?.hasPrefix("text/plain") == true)
    let wrong = try await harness.raw("POST", "/inApps/v2/history/\(World.subscriptionOriginal)")
    #expect(wrong.status == 405)
    #expect(wrong[header: "Allow"] == "GET")
  }

  @Test(
    "setting an app account token changes the purchase's latest transaction and renewal info, never an earlier renewal"
  )
  func setAppAccountToken() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let token = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
    try await harness.client.setAppAccountToken(
      token, forOriginalTransactionId: World.subscriptionOriginal, environment: .production)
    let renewal = try #require(
      World.subscriber.transactions.last { $0.originalTransactionId == World.subscriptionOriginal })
    let info = try await harness.client.transactionInfo(
      renewal.transactionId, environment: .production)
    #expect(info.payload.appAccountToken == token.lowercased())
    #expect(info.payload.signedDate == World.now.adding(milliseconds: 1))
    let statuses = try await harness.client.allSubscriptionStatuses(
      World.subscriptionOriginal, environment: .production)
    let entry = try #require(
      statuses.groups.flatMap(\.lastTransactions).first {
        $0.originalTransactionId == World.subscriptionOriginal
      })
    #expect(entry.renewalInfo.payload.appAccountToken == token.lowercased())
    #expect(entry.transaction.payload.appAccountToken == token.lowercased())
    let world = try harness.server.world()
    let purchase = world.customers[0].transactions.filter {
      $0.originalTransactionId == World.subscriptionOriginal
    }
    #expect(purchase.filter { $0.appAccountToken == token.lowercased() }.count == 1)
    #expect(
      purchase.first { $0.appAccountToken == token.lowercased() }?.transactionId
        == renewal.transactionId)
    let first = try await harness.client.transactionInfo(
      World.subscriptionOriginal, environment: .production)
    #expect(first.payload.appAccountToken == nil, "a past renewal is not rewritten")
    #expect(first.payload.signedDate == World.now, "and is not signed again")
    #expect(
      world.customers[0].transactions.first { $0.transactionId == World.consumableId }?
        .appAccountToken == nil)
    // A second change signs again, later still.
    try await harness.client.setAppAccountToken(
      "00000000-0000-4000-8000-000000000000", forOriginalTransactionId: World.subscriptionOriginal,
      environment: .production)
    let again = try await harness.client.transactionInfo(
      renewal.transactionId, environment: .production)
    #expect(again.payload.signedDate == World.now.adding(milliseconds: 2))
    #expect(harness.server.configuration.world == World.world, "the configuration is untouched")
  }

  @Test("set app account token refuses what Apple refuses")
  func setAppAccountTokenErrors() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let good = "a2c4e6f8-0b1d-4f3a-8c5e-7a9b1c3d5e7f"
    let renewal = try #require(
      World.subscriber.transactions.last { $0.originalTransactionId == World.subscriptionOriginal })
    let cases: [(String, String, Int64)] = [
      ("not-a-uuid", World.subscriptionOriginal, 4_000_183),
      ("a2c4e6f8-0b1d-4f3a-8c5e-7a9b1c3d5e7", World.subscriptionOriginal, 4_000_183),
      (good, World.memberOriginal, 4_000_185),
      (good, renewal.transactionId, 4_000_187),
      (good, World.subscriber.appTransactionId, 4_000_048),
      (good, "2000000000999999", 4_040_005),
      (good, World.testerTransaction, 4_040_005),
      (good, "12ab", 4_000_006),
    ]
    for (token, id, code) in cases {
      await #expect {
        try await harness.client.setAppAccountToken(
          token, forOriginalTransactionId: id, environment: .production)
      } throws: { ($0 as? AppStoreAPIError)?.code == code }
    }
    let notJSON = try await harness.raw(
      "PUT", "/inApps/v1/transactions/\(World.subscriptionOriginal)/appAccountToken", body: "{")
    #expect(SimulatorHarness.errorCode(of: notJSON) == 4_000_000)
    #expect(try harness.server.world() == World.world, "nothing changed")
  }
}
