import AppStoreServerAPI
import AppStoreSimulator
import Foundation
import MigrationStore
import Testing

/// The backfill never wastes a request: one history walk (each page once) and one status call
/// per customer, a 404 only where the id is not in the environment asked, and nothing at all
/// when everything is already stored.
@Suite("End to end: the minimum number of requests")
struct RequestMinimalityTests {
  @Test("one walk and one status call per customer, and nothing on a rerun")
  func minimal() async throws {
    let world = try EndToEnd.world(seed: 21, accounts: 200)
    let scratch = try EndToEnd.scratch()
    let appStore = try EndToEnd.AppStore(world: world)
    defer { appStore.stop() }
    let options = try EndToEnd.options(world: world, reports: scratch.appendingPathComponent("r"))
    let outcome = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    #expect(outcome.backfill.failedIds == 0)

    let customers = try storedCustomers(scratch.appendingPathComponent("store.sqlite").path)
    let log = appStore.embedded.server.requestLog()
    let statistics = appStore.embedded.server.statistics()
    #expect(statistics.totalRequests == log.count, "the log must hold every request")

    // Each customer: its pages once, its statuses once.
    var historyAnswers: [String: Int] = [:]
    var statusAnswers: [String: Int] = [:]
    var notFound: [String: Int] = [:]
    for entry in log {
      let id = String(entry.path.split(separator: "/").last ?? "")
      switch (entry.endpoint, entry.status) {
      case (.transactionHistory?, 200?):
        historyAnswers[customers.byId[id] ?? "unknown id \(id)", default: 0] += 1
      case (.subscriptionStatuses?, 200?):
        statusAnswers[customers.byId[id] ?? "unknown id \(id)", default: 0] += 1
      case (.transactionHistory?, 404?):
        notFound["\(entry.environment.rawValue) \(id)", default: 0] += 1
      default:
        Issue.record("unexpected request: \(entry)")
      }
    }
    #expect(historyAnswers == customers.pages)
    #expect(statusAnswers == customers.pages.mapValues { _ in 1 })
    #expect(notFound.values.allSatisfy { $0 == 1 }, "an id was asked twice in one environment")

    // A 404 only where the world really does not know the id in that environment.
    let worldData = appStore.embedded.setup.world
    for key in notFound.keys {
      let parts = key.split(separator: " ").map(String.init)
      let owner = worldData.customers.first { $0.owns(parts[1]) }
      #expect(
        owner == nil || owner?.environment.rawValue != parts[0] || owner?.isForgotten == true,
        "\(key) was answered 404 although the world knows it there")
    }

    // A rerun over the complete store sends nothing.
    let before = appStore.embedded.server.statistics().totalRequests
    let again = try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options)
      .run()
    #expect(appStore.embedded.server.statistics().totalRequests == before)
    #expect(again.ingest == nil, "the same inputs must not be ingested twice")
    #expect(again.backfill.historyPages == 0 && again.backfill.statusCalls == 0)
  }

  /// The customers the backfill stored: which customer each id belongs to, and how many
  /// history pages its transactions fill (20 to a page, at least one).
  private func storedCustomers(_ path: String) throws -> (
    byId: [String: String], pages: [String: Int]
  ) {
    let database = try SQLiteDatabase(location: .path(path), mode: .readOnly)
    defer { try? database.close() }
    var byId: [String: String] = [:]
    var pages: [String: Int] = [:]
    try database.forEachRow(
      "SELECT c.customer_key, c.walk_transaction_id, count(t.transaction_id) FROM customers c LEFT JOIN transactions t ON t.customer_id = c.id GROUP BY c.id"
    ) { row in
      let key = try row.string(at: 0)
      byId[try row.string(at: 1)] = key
      pages[key] = max(1, (try row.int(at: 2) + 19) / 20)
    }
    try database.forEachRow(
      "SELECT t.transaction_id, t.original_transaction_id, c.customer_key FROM transactions t JOIN customers c ON c.id = t.customer_id"
    ) { row in
      let key = try row.string(at: 2)
      byId[try row.string(at: 0)] = key
      if let original = try row.optionalString(at: 1) { byId[original] = key }
    }
    return (byId, pages)
  }
}
