import AppStoreServerAPI
import CryptoSupport
import HTTPServer
import JSON

extension SimulatorResponder {
  /// `GET /inApps/v1/transactions/{transactionId}`: one transaction; the id must be a
  /// transaction's (an app transaction id names no transaction: 4040010).
  func transactionInfo(_ id: String, in environment: SimulatedEnvironment) throws(CryptoError)
    -> Answer
  {
    let snapshot: CustomerSnapshot
    switch resolve(id, in: environment) {
    case .failure(let error): return .error(error)
    case .success(let resolved): snapshot = resolved
    }
    guard let transaction = snapshot.customer.transactions.first(where: { $0.transactionId == id })
    else { return .error(.transactionIdNotFound) }
    let signed = try signed.transaction(
      transaction, of: snapshot, factory: factory(for: environment), now: state.now)
    return .json { writer in
      writer.beginObject()
      writer.field("signedTransactionInfo", signed.jws)
      writer.endObject()
    }
  }

  /// `GET /inApps/v1/transactions/appTransactions/{anyTransactionId}`: the customer's app
  /// transaction, or 4040019 for the customers configured to have none.
  func appTransaction(_ id: String, in environment: SimulatedEnvironment) throws(CryptoError)
    -> Answer
  {
    let snapshot: CustomerSnapshot
    switch resolve(id, in: environment) {
    case .failure(let error): return .error(error)
    case .success(let resolved): snapshot = resolved
    }
    guard !customersWithoutAppTransaction.contains(snapshot.customer.appTransactionId) else {
      return .error(.appTransactionDoesNotExist)
    }
    let signed = try signed.appTransaction(
      of: snapshot, factory: factory(for: environment), now: state.now)
    return .json { writer in
      writer.beginObject()
      writer.field("signedAppTransactionInfo", signed.jws)
      writer.endObject()
    }
  }

  /// `GET /inApps/v1/lookup/{orderId}`: the transaction of an order (see `OrderIdentifier`),
  /// `status: 0`; any id that is not an order of this environment's customers — malformed,
  /// unknown, another app's, a family member's shared purchase — is `status: 1` without a
  /// `signedTransactions` array, as Apple documents ("invalid or doesn't contain any in-app
  /// purchases for your app"), never a 404.
  func orderLookup(_ orderId: String, in environment: SimulatedEnvironment) throws -> Answer {
    let invalid = Answer.json { writer in
      OrderLookupResponse(status: .invalid, transactions: []).write(to: &writer)
    }
    if environment == .sandbox && behaviour.sandboxOrderLookup == .invalid { return invalid }
    guard let transactionId = OrderIdentifier.transactionId(forOrderId: orderId),
      let position = try state.customerPosition(owning: transactionId),
      state.isKnown(position, in: environment)
    else { return invalid }
    let snapshot = try state.snapshot(of: position)
    guard
      let transaction = snapshot.customer.transactions.first(where: {
        $0.transactionId == transactionId
      }),
      OrderIdentifier.orderId(for: transaction) == orderId
    else { return invalid }
    let signed = try signed.transaction(
      transaction, of: snapshot, factory: factory(for: environment), now: state.now)
    return .json { writer in
      OrderLookupResponse(status: .valid, transactions: [signed]).write(to: &writer)
    }
  }
}
