import AppStoreServerAPI
import AppStoreSimulator
import Foundation
import Synchronization
import Testing

@Suite("Simulator server: request log, counters, lifecycle")
struct ServerObservabilityTests {
  typealias World = HandBuiltWorld

  @Test("counters by endpoint, environment and status; a bounded log; a callback per request")
  func logAndCounters() async throws {
    let seen = Mutex<[SimulatorRequestLogEntry]>([])
    let harness = try SimulatorHarness.start(world: World.world) {
      $0.requestLogCapacity = 3
      $0.requestLog = { entry in seen.withLock { $0.append(entry) } }
    }
    defer { harness.stop() }
    _ = try await harness.client.transactionHistory(
      World.subscriptionOriginal, environment: .production)
    _ = try await harness.client.transactionHistory(World.testerTransaction, environment: .sandbox)
    _ = try await harness.raw("GET", "/inApps/v2/history/2000000000999999")
    _ = try await harness.raw("GET", "/nowhere")
    _ = try await harness.raw(
      "GET", "/inApps/v1/subscriptions/\(World.subscriptionOriginal)", token: "x")

    let statistics = harness.server.statistics()
    #expect(statistics.totalRequests == 5)
    #expect(statistics.counters(for: .transactionHistory).statuses == [200: 2, 404: 1])
    #expect(statistics.counters(for: .transactionHistory, in: [.sandbox]).requests == 1)
    #expect(statistics.counters(for: .transactionHistory).errorCodes == [4_040_010: 1])
    #expect(statistics.counters(for: nil).statuses == [404: 1])
    #expect(statistics.counters(for: .subscriptionStatuses).tokenRejections == [.malformed: 1])
    #expect(statistics.productionHTTP.requestsServed == 4)
    #expect(statistics.sandboxHTTP.requestsServed == 1)
    #expect(statistics.cachedSignedValues == 20 + 1)

    let log = harness.server.requestLog()
    #expect(log.map(\.sequence) == [3, 4, 5], "the newest three, oldest first")
    #expect(log.map(\.status) == [404, 404, 401])
    let all = seen.withLock { $0 }
    #expect(all.map(\.sequence) == [1, 2, 3, 4, 5])
    #expect(all[1].environment == .sandbox && all[1].endpoint == .transactionHistory)
    #expect(all[0].description.hasPrefix("#1 Production GET /inApps/v2/history/"))
    #expect(all[0].description.contains(" 200 "))
  }

  @Test("stop closes both listeners; a taken port is a start error that names the listener")
  func lifecycle() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    let port = harness.server.productionPort
    #expect(harness.server.productionURL.absoluteString == "http://127.0.0.1:\(port)")
    #expect(harness.server.sandboxPort != port)
    #expect {
      _ = try SimulatorHarness.start(world: World.world) { $0.productionPort = port }
    } throws: { error in
      (error as? SimulatorStartError)?.message.contains("production listener") == true
    }
    harness.stop()
    harness.stop()
    await #expect(throws: (any Error).self) {
      _ = try await harness.raw("GET", "/inApps/v2/history/\(World.subscriptionOriginal)")
    }
  }

  @Test("settings out of range are refused at start")
  func invalidSettings() {
    for configure in [
      { (configuration: inout SimulatorConfiguration) in configuration.pageSize = 0 },
      { $0.notificationFailureRate = 2 },
      { $0.rateLimits = SimulatorRateLimits(production: [.orderLookup: 0]) },
      { $0.faults = FaultPlan(allEndpoints: EndpointFaults(rates: [.dropConnection: 1.5])) },
    ] as [(inout SimulatorConfiguration) -> Void] {
      #expect(throws: SimulatorStartError.self) {
        _ = try SimulatorHarness.start(world: World.world, configure: configure)
      }
    }
  }
}
