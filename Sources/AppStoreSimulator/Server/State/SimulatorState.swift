import Chronology
import Synchronization

/// The server's copy of the world: an index from every id to its customer, fixed at start, the
/// customers as generated, and the customers `setAppAccountToken` has changed since.
///
/// Every request reads one customer, so reads must not queue behind one lock: the changed
/// customers are spread over 16 locks by position, and a customer never changed is read from the
/// immutable array after one uncontended look in its shard.
final class SimulatorState: Sendable {
  /// A customer the server has changed, with the modification of each changed transaction and
  /// of the renewal information of each changed subscription.
  private struct Changed {
    var customer: Customer
    var modifications: [String: Modification]
    var renewalModifications: [String: Modification] = [:]
  }

  private final class Shard: Sendable {
    let changed = Mutex<[Int: Changed]>([:])
  }

  private static let shardCount = 16

  /// The App Store's clock: the instant every answer describes (the configured clock, or the
  /// world's).
  let now: Timestamp
  /// The app's bundle id.
  let bundleId: String
  /// The app's Apple id.
  let appAppleId: Int64
  /// The catalogue, by product id.
  let products: [String: SimulatedProduct]
  private let template: World
  private let generated: [Customer]
  private let index: [String: Int]
  /// Each customer's environment, or `nil` when the App Store has forgotten them.
  private let environments: [SimulatedEnvironment?]
  private let shards: [Shard] = (0..<SimulatorState.shardCount).map { _ in Shard() }
  /// Counts the server's changes; taken before a shard's lock, never inside one.
  private let changes = Mutex<Int64>(0)

  init(world: World, clock: Timestamp? = nil) {
    let now = clock ?? world.now
    self.now = now
    bundleId = world.bundleId
    appAppleId = world.appAppleId
    var products: [String: SimulatedProduct] = [:]
    for product in world.products { products[product.id] = product }
    self.products = products
    var index: [String: Int] = [:]
    for (position, customer) in world.customers.enumerated() {
      index[customer.appTransactionId] = position
      // An id that does not exist yet at the clock is unknown, as it would be to Apple.
      for transaction in customer.transactions where transaction.purchaseDate <= now {
        index[transaction.transactionId] = position
        index[transaction.originalTransactionId] = position
      }
    }
    self.index = index
    environments = world.customers.map { $0.isForgotten ? nil : $0.environment }
    generated = world.customers
    var template = world
    template.customers = []
    self.template = template
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

  private func shard(_ position: Int) -> Shard {
    shards[position % Self.shardCount]
  }

  /// The customer at `position`, with the server's changes.
  func snapshot(of position: Int) -> CustomerSnapshot {
    if let changed = shard(position).changed.withLock({ $0[position] }) {
      return CustomerSnapshot(
        customer: changed.customer, modifications: changed.modifications,
        renewalModifications: changed.renewalModifications)
    }
    return CustomerSnapshot(customer: generated[position], modifications: [:])
  }

  /// The customer at `position` as generated, before any change the server made: what every
  /// notification of the world (all dated at or before the clock) was signed from, since each
  /// change is dated after the clock.
  func generatedCustomer(at position: Int) -> Customer {
    generated[position]
  }

  /// Sets the app account token of a purchase as Apple does: on its latest transaction at the
  /// world's clock (the purchase itself, or a subscription's latest renewal) and on any later
  /// one, never on earlier renewals; records the change of each.
  ///
  /// - Returns: the modification.
  func setAppAccountToken(
    _ token: String, originalTransactionId: String, customerAt position: Int
  ) -> Modification {
    changes.withLock { count in
      count += 1
      let modification = Modification(version: count, at: now.adding(milliseconds: count))
      shard(position).changed.withLock { changed in
        var customer =
          changed[position] ?? Changed(customer: generated[position], modifications: [:])
        let purchase = customer.customer.transactions.indices.filter {
          customer.customer.transactions[$0].originalTransactionId == originalTransactionId
        }
        let latest =
          purchase.map { customer.customer.transactions[$0].purchaseDate }.filter { $0 <= now }
          .max()
        for offset in purchase
        where latest.map({ customer.customer.transactions[offset].purchaseDate >= $0 }) ?? true {
          customer.customer.transactions[offset].appAccountToken = token
          customer.modifications[customer.customer.transactions[offset].transactionId] =
            modification
        }
        customer.renewalModifications[originalTransactionId] = modification
        changed[position] = customer
      }
      return modification
    }
  }

  /// Every customer, with the server's changes.
  func allCustomers() -> [Customer] {
    var customers = generated
    for shard in shards {
      for (position, changed) in shard.changed.withLock({ $0 }) {
        customers[position] = changed.customer
      }
    }
    return customers
  }

  /// The world as it is now, with the server's changes.
  func world() -> World {
    var world = template
    world.customers = allCustomers()
    return world
  }
}
