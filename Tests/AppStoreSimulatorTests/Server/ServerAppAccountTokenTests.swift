import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Foundation
import LegacyReceipts
import TestDirectories
import Testing

/// Set App Account Token as Apple documents it: its errors (the `ASSIGNED` one a setting, since
/// Apple's documentation of the endpoint does not confirm it), and the token log that keeps what
/// the endpoint set across restarts at later clocks, renewals bought since included. Our own
/// code on both sides (the simulator and this project's client); Apple's library judges the
/// same endpoint in `AppleConformanceTests`.
@Suite("Simulator server: Set App Account Token")
struct ServerAppAccountTokenTests {
  typealias World = HandBuiltWorld

  static let token = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
  static let later = "0b6b2f4e-5a71-4c2d-9e83-7f1a2b3c4d5e"
  static let assignedOriginal = "2000000000300001"

  /// The hand-built world with an `ASSIGNED` purchase, and the subscription renewed twice after
  /// the clock (at the clock, and 30 days later), its timeline going on 70 days.
  static let world: AppStoreSimulator.World = {
    var world = World.world
    var assignee = Customer(
      index: 3, appTransactionId: "704000000000003007", environment: .production,
      firstSeen: World.at(-50))
    assignee.transactions = [
      SimulatedTransaction(
        transactionId: assignedOriginal, originalTransactionId: assignedOriginal,
        webOrderLineItemId: nil, productId: "com.example.filters.lifetime", kind: .nonConsumable,
        group: nil, purchaseDate: World.at(-40), originalPurchaseDate: World.at(-40),
        expiresDate: nil, ownership: .other("ASSIGNED"), reason: "PURCHASE", priceMilli: 0)
    ]
    world.customers.append(assignee)
    var subscriber = world.customers[0]
    let last = subscriber.transactions.last {
      $0.originalTransactionId == World.subscriptionOriginal
    }
    for period in Int64(0)..<2 {
      guard var renewal = last else { break }
      renewal.transactionId = String(2_000_000_000_100_043 + period)
      renewal.webOrderLineItemId = String(600_000_000_100_043 + period)
      renewal.purchaseDate = World.at(30 * period)
      renewal.expiresDate = World.at(30 * (period + 1))
      renewal.reason = "RENEWAL"
      renewal.revocation = nil
      subscriber.transactions.append(renewal)
    }
    world.customers[0] = subscriber
    world.timelineEnd = World.at(70)
    return world
  }()

  /// The subscription's transactions carrying a token, by id, as the server holds them.
  static func tokens(_ server: SimulatorServer) throws -> [String: String] {
    var tokens: [String: String] = [:]
    for transaction in try server.world().customers[0].transactions
    where transaction.originalTransactionId == World.subscriptionOriginal {
      if let token = transaction.appAccountToken { tokens[transaction.transactionId] = token }
    }
    return tokens
  }

  @Test("the errors Apple documents: 4000048, 4040005, 4000187, 4000185, 4000227 unless accepted")
  func errors() async throws {
    let harness = try SimulatorHarness.start(world: Self.world)
    defer { harness.stop() }
    let cases: [(String, Int64)] = [
      (World.subscriber.appTransactionId, 4_000_048), ("2000000000999999", 4_040_005),
      (World.testerTransaction, 4_040_005), ("2000000000100043", 4_000_187),
      (World.memberOriginal, 4_000_185), (Self.assignedOriginal, 4_000_227), ("12ab", 4_000_006),
    ]
    for (id, code) in cases {
      await #expect {
        try await harness.client.setAppAccountToken(
          Self.token, forOriginalTransactionId: id, environment: .production)
      } throws: { ($0 as? AppStoreAPIError)?.code == code }
    }
    #expect(try harness.server.world() == Self.world, "nothing changed")

    // Where Apple accepts a token on an assigned purchase, the setting says so.
    let accepting = try SimulatorHarness.start(world: Self.world) {
      $0.behaviour.assignedPurchaseToken = .accepted
    }
    defer { accepting.stop() }
    try await accepting.client.setAppAccountToken(
      Self.token, forOriginalTransactionId: Self.assignedOriginal, environment: .production)
    let info = try await accepting.client.transactionInfo(
      Self.assignedOriginal, environment: .production)
    #expect(info.payload.appAccountToken == Self.token)
    #expect(info.payload.inAppOwnershipType == .assigned)
  }

  @Test(
    "a token log keeps the tokens set across restarts at later clocks: renewals bought since carry them, later changes override them from their clock on"
  )
  func tokenLog() async throws {
    let directory = try TemporaryDirectory.make(prefix: "token-log")
    defer { TemporaryDirectory.remove(directory) }
    let log = directory.appendingPathComponent("tokens.ndjson").path
    let atClock = "2000000000100043"
    let renewal = "2000000000100044"

    // At the world's clock: the token lands on the latest period and the renewal to come.
    let first = try SimulatorHarness.start(world: Self.world) { $0.tokenLogPath = log }
    #expect(!FileManager.default.fileExists(atPath: log), "no change, no file")
    try await first.client.setAppAccountToken(
      Self.token, forOriginalTransactionId: World.subscriptionOriginal, environment: .production)
    first.stop()
    #expect(try Self.tokens(first.server) == [atClock: Self.token, renewal: Self.token])
    let mode = try FileManager.default.attributesOfItem(atPath: log)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o600)

    // 31 days later, served again: the renewal bought since carries the token.
    let later = World.at(31)
    let second = try SimulatorHarness.start(world: Self.world) {
      $0.tokenLogPath = log
      $0.clock = later
    }
    let renewed = try await second.client.transactionInfo(renewal, environment: .production)
    #expect(renewed.payload.appAccountToken == Self.token)
    #expect(try Self.tokens(second.server) == [atClock: Self.token, renewal: Self.token])
    // A change now lands on the renewal only: the period at the old clock keeps the first token.
    try await second.client.setAppAccountToken(
      Self.later, forOriginalTransactionId: World.subscriptionOriginal, environment: .production)
    second.stop()
    #expect(try Self.tokens(second.server) == [atClock: Self.token, renewal: Self.later])

    // Served again at that clock, and at the world's clock (the later change not yet made).
    for (clock, expected) in [
      (later, [atClock: Self.token, renewal: Self.later]),
      (World.now, [atClock: Self.token, renewal: Self.token]),
    ] {
      let again = try SimulatorHarness.start(world: Self.world) {
        $0.tokenLogPath = log
        $0.clock = clock
      }
      again.stop()
      #expect(try Self.tokens(again.server) == expected, "at \(clock)")
    }
  }

  @Test("a line torn by a crash is dropped; any other line that is not a change stops the start")
  func tornLog() throws {
    let directory = try TemporaryDirectory.make(prefix: "token-log")
    defer { TemporaryDirectory.remove(directory) }
    let log = directory.appendingPathComponent("tokens.ndjson")
    let change =
      #"{"original_transaction_id":"2000000000100001","app_account_token":"\#(Self.token)","clock_ms":\#(World.now.millisecondsSince1970)}"#
    try Data((change + "\n" + #"{"original_transaction_id":"20"#).utf8).write(to: log)
    let torn = try SimulatorHarness.start(world: Self.world) { $0.tokenLogPath = log.path }
    torn.stop()
    #expect(try Self.tokens(torn.server)["2000000000100043"] == Self.token)
    #expect(try String(contentsOf: log, encoding: .utf8) == change + "\n", "the torn tail is cut")

    try Data((change + "\nnot a change\n" + change + "\n").utf8).write(to: log)
    #expect {
      _ = try SimulatorHarness.start(world: Self.world) { $0.tokenLogPath = log.path }
    } throws: { "\($0)".contains("line 2 of the token log") }
  }
}
