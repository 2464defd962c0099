import Chronology

/// One customer as the server sees them at the moment of a request: the world's customer with
/// the server's own changes applied, and the modification of each changed transaction and
/// renewal information.
struct CustomerSnapshot: Sendable {
  /// The customer, with changed app account tokens.
  var customer: Customer
  /// The latest modification of each changed transaction, by transaction id.
  var modifications: [String: Modification]
  /// The latest modification of each changed subscription's renewal information, by original
  /// transaction id.
  var renewalModifications: [String: Modification] = [:]

  /// When `transaction` last changed: its own dated changes at `now`, or the server's later
  /// modification of it.
  func lastModified(_ transaction: SimulatedTransaction, now: Timestamp) -> Timestamp {
    modifications[transaction.transactionId]?.at ?? transaction.lastModified(at: now)
  }
}
