import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import CryptoSupport
import Foundation
import JSON
import TestDirectories
import Testing

/// One run of `apple_conformance.py` against a generated world served on loopback, shared by the
/// tests of ``AppleConformanceTests`` (it takes some seconds).
final class ConformanceRun: Sendable {
  let directory: URL
  let setup: SimulatorSetup
  let server: SimulatorServer
  let limited: SimulatorServer
  let shapes: [ConformanceShape]
  let verifier: SignedDataVerifier
  let harness: ConformanceHarness

  /// The world: small enough for a test, and generated with every kind of story.
  static let accounts = 60
  static let seed: UInt64 = 14

  private init(
    directory: URL, setup: SimulatorSetup, server: SimulatorServer, limited: SimulatorServer,
    shapes: [ConformanceShape], verifier: SignedDataVerifier, harness: ConformanceHarness
  ) {
    self.directory = directory
    self.setup = setup
    self.server = server
    self.limited = limited
    self.shapes = shapes
    self.verifier = verifier
    self.harness = harness
  }

  /// Generates the world into a temporary folder and starts two simulators on loopback: one
  /// without rate limits, one allowing one order look-up per 100 seconds (for a 429, however
  /// slowly the script runs).
  static func start(harness: ConformanceHarness) throws -> ConformanceRun? {
    // Removed by ``stop()``, or here if the run cannot start.
    let directory = try TemporaryDirectory.make(prefix: "conformance")
    var started: [SimulatorServer] = []
    do {
      return try start(harness: harness, in: directory, started: &started)
    } catch {
      for server in started { server.stop() }
      TemporaryDirectory.remove(directory)
      throw error
    }
  }

  private static func start(
    harness: ConformanceHarness, in directory: URL, started: inout [SimulatorServer]
  ) throws -> ConformanceRun? {
    let world = withAssignedPurchase(WorldGenerator().generate(accounts: accounts, seed: seed))
    try GeneratedArchive(world: world).write(to: directory.path)
    let setup = try SimulatorSetup.prepare(worldDirectory: directory.path)
    // Apple's client stamps its tokens with the machine's clock (see the suite's comment).
    let wallClock: @Sendable () -> Timestamp = {
      Timestamp(millisecondsSince1970: Int64(Date().timeIntervalSince1970 * 1000))
    }
    var configuration = setup.configuration(now: wallClock)
    configuration.rateLimits = .off
    configuration.requestLogCapacity = 0
    let server = try SimulatorServer.start(configuration: configuration)
    started.append(server)
    configuration.rateLimits = try SimulatorRateLimits.parse("order=0.01")
    // And no notification URL in production: a test notification is refused with 4040007.
    configuration.notificationURLs = [.production: NotificationURL.none]
    let limited = try SimulatorServer.start(configuration: configuration)
    started.append(limited)
    let shapes = try ConformanceShape.all(
      chain: setup.chain, bundleId: world.bundleId, appAppleId: world.appAppleId, now: world.now)
    let verifier = try SignedDataVerifier(
      trustedRoots: [setup.chain.root.certificate], bundleId: world.bundleId,
      appAppleId: world.appAppleId, environment: .production, now: { world.now },
      notice: { _ in })
    return ConformanceRun(
      directory: directory, setup: setup, server: server, limited: limited, shapes: shapes,
      verifier: verifier, harness: harness)
  }

  /// The world with one production one-time purchase owned as `ASSIGNED` (the generator makes
  /// none), for Set App Account Token's answer to it.
  static func withAssignedPurchase(_ world: World) -> World {
    var world = world
    for (index, customer) in world.customers.enumerated()
    where customer.environment == .production && !customer.isForgotten {
      guard
        let offset = customer.transactions.firstIndex(where: {
          ($0.kind == .nonConsumable || $0.kind == .consumable) && $0.ownership == .purchased
            && $0.transactionId == $0.originalTransactionId && $0.purchaseDate <= world.now
        })
      else { continue }
      world.customers[index].transactions[offset].ownership = .other("ASSIGNED")
      return world
    }
    return world
  }

  func stop() {
    server.stop()
    limited.stop()
    TemporaryDirectory.remove(directory)
  }

  /// This project's verdict on a shape.
  func verify(_ shape: ConformanceShape) -> VerificationFailure? {
    let judge = verifier.verifying(environment: shape.environment)
    do {
      switch shape.kind {
      case .transaction: _ = try judge.verifyTransaction(shape.jws)
      case .renewal: _ = try judge.verifyRenewalInfo(shape.jws)
      case .app: _ = try judge.verifyAppTransaction(shape.jws)
      case .notification: _ = try judge.verifyNotification(shape.jws)
      }
      return nil
    } catch {
      return error
    }
  }

  /// Writes the script's configuration, runs it, and returns its result object.
  ///
  /// - Parameter shapesOnly: Only Apple's verdicts on ``shapes``, without driving the server.
  func execute(shapesOnly: Bool = false) throws -> [String: JSONValue] {
    let python = try #require(harness.python)
    let world = setup.world
    var statuses = JSONWriter()
    statuses.beginObject()
    var orders = JSONWriter()
    orders.beginObject()
    var ordersWritten = 0
    for customer in world.customers where !customer.isForgotten {
      let originals = Set(
        customer.transactions.filter { $0.kind == .autoRenewable && $0.purchaseDate <= world.now }
          .map(\.originalTransactionId))
      for original in originals.sorted() {
        if let (status, _, _) = customer.subscriptionStatus(
          originalTransactionId: original, at: world.now)
        {
          statuses.field(original, Int64(status.serverAPIStatus))
        }
      }
      for transaction in customer.transactions
      where customer.environment == .production && transaction.ownership == .purchased
        && transaction.purchaseDate <= world.now && ordersWritten < 12
      {
        if let order = OrderIdentifier.orderId(for: transaction) {
          orders.field(order, transaction.transactionId)
          ordersWritten += 1
        }
      }
    }
    statuses.endObject()
    orders.endObject()
    var config = JSONWriter()
    config.beginObject()
    config.field("production_url", server.url(for: .production).absoluteString)
    config.field("sandbox_url", server.url(for: .sandbox).absoluteString)
    config.field("limited_url", limited.url(for: .production).absoluteString)
    config.field("root_pem_path", setup.rootCertificatePath)
    config.field("key_path", setup.privateKeyPath)
    config.field("key_id", setup.testKey.apiKey.keyId)
    config.field("issuer_id", setup.testKey.apiKey.issuerId)
    config.field("world_path", directory.appendingPathComponent("world.json").path)
    config.field("shapes_only", shapesOnly)
    config.key("statuses")
    config.raw(statuses.bytes)
    config.key("orders")
    config.raw(orders.bytes)
    config.key("shapes")
    config.beginArray()
    for shape in shapes {
      config.beginObject()
      config.field("name", shape.name)
      config.field("kind", shape.kind.rawValue)
      config.field("environment", shape.environment.rawValue)
      config.field("jws", shape.jws)
      config.endObject()
    }
    config.endArray()
    config.endObject()
    let configPath = directory.appendingPathComponent("conformance-config.json")
    let resultPath = directory.appendingPathComponent("conformance-result.json")
    try Data(config.bytes).write(to: configPath)
    let outcome = try ConformanceHarness.run(
      python, [harness.script, configPath.path, resultPath.path])
    print(outcome.output)
    try #require(outcome.status == 0, "apple_conformance.py failed:\n\(outcome.output)")
    let value = try JSONValue(parsing: Array(try Data(contentsOf: resultPath)))
    guard case .object(let members) = value else {
      Issue.record("the result is not a JSON object")
      return [:]
    }
    var result: [String: JSONValue] = [:]
    for member in members { result[member.key] = member.value }
    return result
  }
}
