import Chronology

/// Finds the customer owning an id without a table of every id. A generated world's ids are
/// derived from its customers' numbers (see `IdentifierAllocator`), so the number is computed
/// back from the id; only ids made otherwise (a world written or edited by hand) are kept in a
/// table. A million-account world holds about eight million ids: a table of them would take
/// more memory than the rest of the server.
///
/// The index only proposes a customer; ``SimulatorState`` checks that the customer owns the id
/// at its clock, as an index of owned ids would have answered.
struct CustomerIndex: Sendable {
  /// The number of the customer at position 0.
  let identifierBase: Int
  private var count = 0
  /// Ids whose computed customer is not their owner, with the owner's position.
  private var irregular: [String: Int] = [:]

  /// Creates an empty index for a world whose customers are numbered from `identifierBase`.
  init(identifierBase: Int) {
    self.identifierBase = identifierBase
  }

  /// Adds the next customer.
  ///
  /// - Parameter customer: the customer at the next position.
  mutating func add(_ customer: Customer) {
    let position = count
    count += 1
    note(customer.appTransactionId, position)
    for transaction in customer.transactions {
      note(transaction.transactionId, position)
      note(transaction.originalTransactionId, position)
    }
  }

  private mutating func note(_ id: String, _ position: Int) {
    if IdentifierAllocator.customerNumber(owning: id) == identifierBase + position {
      // The later owner of an id wins, as it did in a table of every id.
      if !irregular.isEmpty { irregular[id] = nil }
    } else {
      irregular[id] = position
    }
  }

  /// The position of the customer that may own `id`.
  ///
  /// - Parameter id: a transaction, original transaction or app transaction id.
  func candidate(for id: String) -> Int? {
    if let position = irregular[id] { return position }
    guard let number = IdentifierAllocator.customerNumber(owning: id) else { return nil }
    let position = number - identifierBase
    return (0..<count).contains(position) ? position : nil
  }

  /// Whether `customer` owns `id` at `instant`: its app transaction id always, a transaction's
  /// ids once the transaction exists (an id not yet bought is unknown, as it would be to Apple).
  static func owns(_ customer: Customer, _ id: String, at instant: Timestamp) -> Bool {
    id == customer.appTransactionId
      || customer.transactions.contains {
        $0.purchaseDate <= instant && ($0.transactionId == id || $0.originalTransactionId == id)
      }
  }
}
