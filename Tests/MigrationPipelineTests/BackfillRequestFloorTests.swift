import AppStoreServerAPI
import Testing

@testable import MigrationPipeline

@Suite("BackfillRequestFloor")
struct BackfillRequestFloorTests {
  typealias Customer = BackfillRequestFloor.Customer
  typealias AskedId = BackfillRequestFloor.AskedId

  @Test(
    "a customer's history takes its transactions in pages of 20, at least one page",
    arguments: [(0, 1), (1, 1), (19, 1), (20, 1), (21, 2), (40, 2), (41, 3), (400, 20)])
  func pages(transactions: Int, pages: Int) {
    let floor = BackfillRequestFloor.compute(
      customers: [Customer(transactions: transactions, environment: .production)], ids: [],
      onlyEnvironment: false)
    #expect(floor.historyPages == pages)
    #expect(floor.historyRequests == [.production: pages])
    #expect(floor.statusRequests == [.production: 1])
    #expect(floor.totalRequests == pages + 1)
  }

  @Test("each customer counts in its own environment")
  func environments() {
    let floor = BackfillRequestFloor.compute(
      customers: [
        Customer(transactions: 45, environment: .production),
        Customer(transactions: 3, environment: .production),
        Customer(transactions: 21, environment: .sandbox),
      ], ids: [], onlyEnvironment: false)
    #expect(floor.customers == 3 && floor.transactions == 69)
    #expect(floor.historyRequests == [.production: 4, .sandbox: 2])
    #expect(floor.statusRequests == [.production: 2, .sandbox: 1])
    #expect(floor.requestsPerCustomer == 9.0 / 3)
  }

  @Test(
    "ids cost a 404 where the environment asked first does not know them",
    arguments: [
      // A customer found where it was looked for first costs nothing beyond its pages.
      (AskedId(outcome: "found", firstAsked: .production, answeredIn: .production), [:], 0),
      (AskedId(outcome: "found", firstAsked: .sandbox, answeredIn: .sandbox), [:], 0),
      // Found only in the other environment: one 404 in the first.
      (
        AskedId(outcome: "found", firstAsked: .production, answeredIn: .sandbox),
        [.production: 1], 1
      ),
      (AskedId(outcome: "found", firstAsked: .sandbox, answeredIn: .production), [.sandbox: 1], 1),
      // Unknown everywhere: one 404 in each environment.
      (
        AskedId(outcome: "unknown", firstAsked: .sandbox, answeredIn: nil),
        [.sandbox: 1, .production: 1], 2
      ),
      // Recognised in a stored history, or never finished: no floor.
      (AskedId(outcome: "covered", firstAsked: .production, answeredIn: .production), [:], 0),
      (AskedId(outcome: "failed", firstAsked: .production, answeredIn: nil), [:], 0),
    ] as [(AskedId, [AppStoreEnvironment: Int], Int)])
  func notFound(id: AskedId, history: [AppStoreEnvironment: Int], notFound: Int) {
    let floor = BackfillRequestFloor.compute(customers: [], ids: [id], onlyEnvironment: false)
    #expect(floor.historyRequests.filter { $0.value > 0 } == history)
    #expect(floor.notFoundAnswers == notFound)
    #expect(floor.totalStatusRequests == 0)
  }

  @Test("with one environment configured an unknown id is asked once; a malformed one once")
  func oneEnvironmentAndInvalidIds() {
    let ids = [
      AskedId(outcome: "unknown", firstAsked: .production, answeredIn: nil),
      AskedId(outcome: "invalid", firstAsked: .production, answeredIn: nil),
    ]
    let fixed = BackfillRequestFloor.compute(customers: [], ids: ids, onlyEnvironment: true)
    #expect(fixed.notFoundAnswers == 1 && fixed.invalidIdAnswers == 1)
    #expect(fixed.historyRequests == [.production: 2])
    let automatic = BackfillRequestFloor.compute(customers: [], ids: ids, onlyEnvironment: false)
    #expect(automatic.notFoundAnswers == 2 && automatic.invalidIdAnswers == 1)
    #expect(automatic.historyRequests == [.production: 2, .sandbox: 1])
  }
}
