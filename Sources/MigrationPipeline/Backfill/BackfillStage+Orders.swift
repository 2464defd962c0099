import AppStoreServerAPI
import Chronology
import MigrationStore

extension BackfillStage {
  /// Asks Look Up Order ID for every order id the records name that has no answer yet (or a
  /// failed one). A valid order's transactions become seed ids of every account naming it; an
  /// invalid one (status 1: not an order of this app) is recorded; a failure is recorded and
  /// asked again by the next backfill.
  ///
  /// Apple serves the endpoint in production only, so it is asked there, unless the run is
  /// pinned to one environment. Its own rate limit (10 per second, a tenth in sandbox) paces
  /// these requests apart from history and statuses.
  ///
  /// - Throws: `SQLiteError`, `CancellationError`, and an authentication failure re-signing
  ///   does not cure.
  func resolveOrders() async throws {
    let seeds = try store.orderSeedsNeedingLookup()
    guard !seeds.isEmpty else { return }
    let byOrder = Dictionary(grouping: seeds, by: \.orderId)
    let orders = byOrder.keys.sorted()
    try await ConcurrentWork.forEach(
      orders, limit: options.concurrency, afterEach: { await self.showRequestCounters() },
      body: { orderId in try await self.lookUp(orderId, namedBy: byOrder[orderId] ?? []) })
  }

  private func lookUp(_ orderId: String, namedBy seeds: [OrderSeedRow]) async throws {
    try StopRequest.checkpoint()
    let environment = options.environment ?? .production
    let outcome: OrderOutcomeRow
    do {
      let answer = try await client.lookUpOrderId(orderId, environment: environment)
      switch answer.status {
      case .valid where !answer.transactions.isEmpty:
        var ids: [String] = []
        for transaction in answer.transactions {
          let payload = transaction.payload
          guard let id = payload.originalTransactionId ?? payload.transactionId,
            !ids.contains(id)
          else { continue }
          ids.append(id)
        }
        outcome = OrderOutcomeRow(
          orderId: orderId, outcome: "valid", environment: environment.rawValue,
          transactionIds: ids, lastError: nil)
      case .valid:
        // Apple documents at least one transaction for a valid order: an answer without any
        // cannot be used, and is not taken for an order without customers.
        outcome = OrderOutcomeRow(
          orderId: orderId, outcome: "failed", environment: environment.rawValue,
          transactionIds: [],
          lastError: "Look Up Order ID answered status 0 without any signed transaction")
      default:
        outcome = OrderOutcomeRow(
          orderId: orderId, outcome: "invalid", environment: environment.rawValue,
          transactionIds: [], lastError: nil)
      }
    } catch {
      if case .unauthorized = error.kind { throw error }
      if error.errorCode == .invalidAppIdentifier { throw error }
      if case .cancelled = error.kind { throw CancellationError() }
      outcome = OrderOutcomeRow(
        orderId: orderId, outcome: "failed", environment: environment.rawValue,
        transactionIds: [], lastError: error.description)
      observer?.counted(Self.name, "failures", by: 1)
    }
    try store.storeOrderOutcome(outcome, namedBy: seeds, now: now().millisecondsSince1970)
    summary.orderOutcomes[outcome.outcome, default: 0] += 1
  }
}
