import Chronology
import Synchronization

/// The server's copy of the world: an index from every id to its customer, fixed at start, and
/// the customers themselves, which `setAppAccountToken` changes.
///
/// Readers copy one customer out under the lock (a copy-on-write struct, so the copy is cheap)
/// and work on the copy; the one writer changes it in place.
final class SimulatorState: Sendable {
  private struct Mutable {
    var customers: [Customer]
    var modifications: [Int: [String: Modification]] = [:]
    var changes: Int64 = 0
  }

  /// The world's clock: the instant every answer describes.
  let now: Timestamp
  /// The app's bundle id.
  let bundleId: String
  /// The app's Apple id.
  let appAppleId: Int64
  /// The catalogue, by product id.
  let products: [String: SimulatedProduct]
  private let template: World
  private let index: [String: Int]
  /// Each customer's environment, or `nil` when the App Store has forgotten them.
  private let environments: [SimulatedEnvironment?]
  private let mutable: Mutex<Mutable>

  init(world: World) {
    now = world.now
    bundleId = world.bundleId
    appAppleId = world.appAppleId
    var products: [String: SimulatedProduct] = [:]
    for product in world.products { products[product.id] = product }
    self.products = products
    var index: [String: Int] = [:]
    for (position, customer) in world.customers.enumerated() {
      index[customer.appTransactionId] = position
      for transaction in customer.transactions {
        index[transaction.transactionId] = position
        index[transaction.originalTransactionId] = position
      }
    }
    self.index = index
    environments = world.customers.map { $0.isForgotten ? nil : $0.environment }
    var template = world
    template.customers = []
    self.template = template
    mutable = Mutex(Mutable(customers: world.customers))
  }

  /// The position of the customer owning `id` (a transaction, original transaction or app
  /// transaction id), in any environment.
  func customerPosition(owning id: String) -> Int? {
    index[id]
  }

  /// Whether the customer at `position` is known to `environment`: customers live in one
  /// environment, and forgotten ones in none.
  func isKnown(_ position: Int, in environment: SimulatedEnvironment) -> Bool {
    environments[position] == environment
  }

  /// The customer at `position`, with the server's changes.
  func snapshot(of position: Int) -> CustomerSnapshot {
    mutable.withLock {
      CustomerSnapshot(
        customer: $0.customers[position], modifications: $0.modifications[position] ?? [:])
    }
  }

  /// Sets the app account token of every transaction of a purchase and records the change.
  ///
  /// - Returns: the modification.
  func setAppAccountToken(
    _ token: String, originalTransactionId: String, customerAt position: Int
  ) -> Modification {
    mutable.withLock { state in
      state.changes += 1
      let modification = Modification(
        version: state.changes, at: now.adding(milliseconds: state.changes))
      for offset in state.customers[position].transactions.indices
      where state.customers[position].transactions[offset].originalTransactionId
        == originalTransactionId
      {
        state.customers[position].transactions[offset].appAccountToken = token
      }
      state.modifications[position, default: [:]][originalTransactionId] = modification
      return modification
    }
  }

  /// The world as it is now, with the server's changes.
  func world() -> World {
    var world = template
    world.customers = mutable.withLock { $0.customers }
    return world
  }

  /// Every customer, for the notification history (built once, on first use).
  func allCustomers() -> [Customer] {
    mutable.withLock { $0.customers }
  }
}
