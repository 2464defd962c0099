import AppStoreServerAPI
import CryptoSupport
import HTTPServer
import JSON

extension SimulatorResponder {
  /// `GET /inApps/v1/subscriptions/{anyTransactionId}`: for each subscription group, one entry
  /// per original transaction of the customer in it, with its status at the world's clock, its
  /// latest transaction and its renewal information; `status=` keeps matching entries only.
  func statuses(_ id: String, _ request: ServerRequest, in environment: SimulatedEnvironment)
    throws(CryptoError) -> Answer
  {
    let snapshot: CustomerSnapshot
    let wanted: Set<Int64>
    let parameters = { () -> Result<Set<Int64>, APIErrorAnswer> in
      var statuses: Set<Int64> = []
      for value in request.queryValues(named: "status") {
        guard let status = Int64(value), (1...5).contains(status) else {
          return .failure(.invalidStatus)
        }
        statuses.insert(status)
      }
      return .success(statuses)
    }
    switch resolve(id, in: environment, parameters: parameters) {
    case .failure(let error): return .error(error)
    case .success(let resolved): (snapshot, wanted) = resolved
    }
    let now = state.now
    let factory = factory(for: environment)
    let customer = snapshot.customer
    let originals = Set(
      customer.transactions.filter { $0.kind == .autoRenewable && $0.purchaseDate <= now }.map(
        \.originalTransactionId))
    var groups: [String: [LastTransactionStatus]] = [:]
    for original in originals.sorted() {
      guard
        let (status, latest, _) = customer.subscriptionStatus(
          originalTransactionId: original, at: now),
        let group = latest.group
      else { continue }
      let code = Int64(status.serverAPIStatus)
      guard wanted.isEmpty || wanted.contains(code) else { continue }
      guard
        let renewal = try signed.renewalInfo(
          originalTransactionId: original, of: snapshot, factory: factory, now: now)
      else { continue }
      groups[group, default: []].append(
        LastTransactionStatus(
          status: SubscriptionStatus(rawValue: code), originalTransactionId: original,
          transaction: try signed.transaction(latest, of: snapshot, factory: factory, now: now),
          renewalInfo: renewal))
    }
    let response = StatusResponse(
      environment: factory.environment, bundleId: state.bundleId, appAppleId: state.appAppleId,
      groups: groups.keys.sorted().map {
        SubscriptionGroupStatus(subscriptionGroupIdentifier: $0, lastTransactions: groups[$0] ?? [])
      })
    let omitsEmpty = groups.isEmpty && behaviour.emptyAnswers == .omittedMembers
    return .json { writer in
      guard omitsEmpty else { return response.write(to: &writer) }
      writer.beginObject()
      writer.field("environment", factory.environment.rawValue)
      writer.field("bundleId", state.bundleId)
      writer.field("appAppleId", state.appAppleId)
      writer.endObject()
    }
  }
}
