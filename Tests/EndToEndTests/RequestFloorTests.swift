import AppStoreServerAPI
import AppStoreSimulator
import Foundation
import MigrationPipeline
import MigrationStore
import Testing

/// The floor computed from a store after a backfill is exactly what a minimal backfill sent:
/// the simulator's own counts per endpoint and environment, 404s included.
@Suite("End to end: the request floor of a store")
struct RequestFloorTests {
  @Test("the floor equals what the simulator answered, endpoint by endpoint and environment")
  func floorMatchesTheSimulator() async throws {
    let world = try EndToEnd.world(seed: 21, accounts: 200)
    let scratch = try EndToEnd.scratch()
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    let outcome = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    #expect(outcome.backfill.failedIds == 0)

    let store = try MigrationStore(
      path: scratch.appendingPathComponent("store.sqlite").path, now: { 0 })
    defer { try? store.close() }
    let floor = try BackfillRequestFloor.of(store: store)
    let statistics = appStore.embedded.server.statistics()
    for environment in SimulatedEnvironment.allCases {
      let named = AppStoreEnvironment(rawValue: environment.rawValue)
      let history = statistics.counters(for: .transactionHistory, in: [environment])
      let status = statistics.counters(for: .subscriptionStatuses, in: [environment])
      #expect(history.requests == floor.historyRequests[named] ?? 0, "\(environment) history")
      #expect(status.requests == floor.statusRequests[named] ?? 0, "\(environment) status")
    }
    let notFound = statistics.counters(for: .transactionHistory).answers(withStatus: 404)
    #expect(notFound == floor.notFoundAnswers)
    // The world exercises every part of the floor.
    #expect(floor.notFoundAnswers > 0)
    #expect(floor.historyPages > floor.customers, "some history spans several pages")
    #expect((floor.historyRequests[.sandbox] ?? 0) > 0)
    #expect(floor.customers == outcome.backfill.customers)
    #expect(floor.totalRequests == outcome.backfill.counters?.totalRequests)
  }
}
