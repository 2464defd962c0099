import AppStoreServerAPI
import AppStoreSimulator
import Foundation
import MigrationPipeline
import MigrationStore
import TestDirectories
import Testing

/// The backfill never wastes a request: one history walk (each page once) and one status call
/// per customer, a 404 only where the id is not in the environment asked, and nothing at all
/// when everything is already stored.
@Suite("End to end: the minimum number of requests")
struct RequestMinimalityTests {
  @Test(
    "one walk and one status call per customer, exactly the floor the store allows, and nothing on a rerun"
  )
  func minimal() async throws {
    let world = try EndToEnd.world(seed: 21, accounts: 200)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    let outcome = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    #expect(outcome.backfill.failedIds == 0)

    let customers = try EndToEnd.storedCustomers(
      scratch.appendingPathComponent("store.sqlite").path)
    let log = appStore.embedded.server.requestLog()
    let statistics = appStore.embedded.server.statistics()
    #expect(statistics.totalRequests == log.count, "the log must hold every request")

    // Each customer: its pages once, its statuses once.
    var historyAnswers: [String: Int] = [:]
    var statusAnswers: [String: Int] = [:]
    var notFound: [String: Int] = [:]
    var orderAnswers: [String: Int] = [:]
    var feed = 0
    for entry in log {
      let id = String(entry.path.split(separator: "/").last ?? "")
      switch (entry.endpoint, entry.status) {
      case (.transactionHistory?, 200?):
        historyAnswers[customers.byId[id] ?? "unknown id \(id)", default: 0] += 1
      case (.subscriptionStatuses?, 200?):
        statusAnswers[customers.byId[id] ?? "unknown id \(id)", default: 0] += 1
      case (.transactionHistory?, 404?):
        notFound["\(entry.environment.rawValue) \(id)", default: 0] += 1
      case (.orderLookup?, 200?):
        orderAnswers[id, default: 0] += 1
      case (.notificationHistory?, 200?), (.requestTestNotification?, 200?),
        (.testNotificationStatus?, 200?):
        // The refresh after the backfill: the feed proven, and read up to now.
        feed += 1
      default:
        Issue.record("unexpected request: \(entry)")
      }
    }
    let refresh = outcome.refresh
    #expect(feed == refresh.notificationPages + refresh.feedRequests + refresh.failurePages)
    #expect(
      refresh.feedRequests == 6,
      "per environment: a test notification, its status, and the history searched for it")
    #expect(refresh.feeds.allSatisfy { $0.state == .healthy }, "\(refresh.feeds)")
    #expect(historyAnswers == customers.pages)
    #expect(statusAnswers == customers.pages.mapValues { _ in 1 })
    #expect(notFound.values.allSatisfy { $0 == 1 }, "an id was asked twice in one environment")
    #expect(orderAnswers.values.allSatisfy { $0 == 1 }, "an order id was looked up twice")

    // A 404 only where the world really does not know the id in that environment.
    let worldData = appStore.embedded.setup.world
    for key in notFound.keys {
      let parts = key.split(separator: " ").map(String.init)
      let owner = worldData.customers.first { $0.owns(parts[1]) }
      #expect(
        owner == nil || owner?.environment.rawValue != parts[0] || owner?.isForgotten == true,
        "\(key) was answered 404 although the world knows it there")
    }

    // The floor computed from the store alone is exactly what was sent, endpoint by endpoint
    // and environment: `bench backfill` compares the client's counters against it.
    let store = try MigrationStore(
      path: scratch.appendingPathComponent("store.sqlite").path, now: { 0 })
    defer { try? store.close() }
    let floor = try BackfillRequestFloor.of(store: store)
    for environment in SimulatedEnvironment.allCases {
      let named = AppStoreEnvironment(rawValue: environment.rawValue)
      let history = statistics.counters(for: .transactionHistory, in: [environment])
      let status = statistics.counters(for: .subscriptionStatuses, in: [environment])
      #expect(history.requests == floor.historyRequests[named] ?? 0, "\(environment) history")
      #expect(status.requests == floor.statusRequests[named] ?? 0, "\(environment) status")
    }
    let notFoundAnswers = statistics.counters(for: .transactionHistory).answers(withStatus: 404)
    #expect(notFoundAnswers == floor.notFoundAnswers)
    #expect(orderAnswers.count == floor.totalOrderLookups)
    // The world exercises every part of the floor.
    #expect(floor.notFoundAnswers > 0)
    #expect(floor.historyPages > floor.customers, "some history spans several pages")
    #expect((floor.historyRequests[.sandbox] ?? 0) > 0)
    #expect(floor.customers == outcome.backfill.customers)
    #expect(floor.totalRequests == outcome.backfill.counters?.totalRequests)

    // A rerun over the complete store sends nothing.
    let before = appStore.embedded.server.statistics().totalRequests
    let again = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    #expect(appStore.embedded.server.statistics().totalRequests == before)
    #expect(again.ingest == nil, "the same inputs must not be ingested twice")
    #expect(again.backfill.historyPages == 0 && again.backfill.statusCalls == 0)
  }
}
