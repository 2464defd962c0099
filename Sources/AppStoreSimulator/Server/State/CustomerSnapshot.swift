import Chronology

/// One customer as the server sees them at the moment of a request: the world's customer with
/// the server's own changes applied, and the modification of each changed purchase.
struct CustomerSnapshot: Sendable {
  /// The customer, with changed app account tokens.
  var customer: Customer
  /// The latest modification of each changed purchase, by original transaction id.
  var modifications: [String: Modification]

  /// When `transaction` last changed: its own dated changes at `now`, or the server's later
  /// modification of its purchase.
  func lastModified(_ transaction: SimulatedTransaction, now: Timestamp) -> Timestamp {
    modifications[transaction.originalTransactionId]?.at ?? transaction.lastModified(at: now)
  }
}
