import Chronology
import Synchronization

/// The server's copy of the world: the customers as generated — held in memory, or read back
/// from `world.json` on demand (``WorldFile``) for a world too large to hold — an index from
/// every id to its customer, fixed at start, and the customers `setAppAccountToken` has changed
/// since.
///
/// Every request reads one customer, so reads must not queue behind one lock: the changed
/// customers are spread over 16 locks by position, and a customer never changed is read from the
/// immutable array (or the file's cache) after one uncontended look in its shard.
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

  /// Where the generated customers are.
  private enum Generated: Sendable {
    case memory([Customer])
    case file(WorldFile)
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
  /// How many customers the world holds.
  let customerCount: Int
  private let template: World
  private let generated: Generated
  private let index: CustomerIndex
  /// Each customer's environment, or `nil` when the App Store has forgotten them.
  private let environments: [SimulatedEnvironment?]
  private let shards: [Shard] = (0..<SimulatorState.shardCount).map { _ in Shard() }
  /// Counts the server's changes; taken before a shard's lock, never inside one.
  private let changes = Mutex<Int64>(0)
  /// Where changes are kept across restarts, if anywhere; written under `changes`.
  private let tokenLog: TokenChangeLog?

  /// Creates the state of a world held in memory, or of a world file read on demand.
  ///
  /// - Parameters:
  ///   - world: the world; with `file`, only its header is used.
  ///   - file: the world's file, when its customers are read from it rather than `world`.
  ///   - clock: the App Store's clock, if not the world's.
  ///   - tokenLog: where token changes are kept across restarts, if anywhere (replay its
  ///     changes with ``replay(_:)``).
  init(
    world: World, file: WorldFile? = nil, clock: Timestamp? = nil,
    tokenLog: TokenChangeLog? = nil
  ) {
    self.tokenLog = tokenLog
    let header = file?.header ?? world
    let now = clock ?? header.now
    self.now = now
    bundleId = header.bundleId
    appAppleId = header.appAppleId
    var products: [String: SimulatedProduct] = [:]
    for product in header.products { products[product.id] = product }
    self.products = products
    if let file {
      generated = .file(file)
      index = file.index
      environments = file.environments
      customerCount = file.customerCount
    } else {
      var index = CustomerIndex(identifierBase: world.identifierBase)
      for customer in world.customers { index.add(customer) }
      self.index = index
      generated = .memory(world.customers)
      environments = world.customers.map { $0.isForgotten ? nil : $0.environment }
      customerCount = world.customers.count
    }
    var template = header
    template.customers = []
    self.template = template
  }

  /// The position of the customer owning `id` (a transaction, original transaction or app
  /// transaction id), in any environment; ids of transactions made after the clock are not
  /// known yet.
  ///
  /// - Throws: ``WorldFileError`` when the world file changed since the server started.
  func customerPosition(owning id: String) throws(WorldFileError) -> Int? {
    guard let position = index.candidate(for: id),
      CustomerIndex.owns(try generatedCustomer(at: position), id, at: now)
    else { return nil }
    return position
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
  ///
  /// - Throws: ``WorldFileError`` when the world file changed since the server started.
  func snapshot(of position: Int) throws(WorldFileError) -> CustomerSnapshot {
    if let changed = shard(position).changed.withLock({ $0[position] }) {
      return CustomerSnapshot(
        customer: changed.customer, modifications: changed.modifications,
        renewalModifications: changed.renewalModifications)
    }
    return CustomerSnapshot(customer: try generatedCustomer(at: position), modifications: [:])
  }

  /// The customer at `position` as generated, before any change the server made: what every
  /// notification of the world (all dated at or before the clock) was signed from, since each
  /// change is dated after the clock.
  ///
  /// - Throws: ``WorldFileError`` when the world file changed since the server started.
  func generatedCustomer(at position: Int) throws(WorldFileError) -> Customer {
    switch generated {
    case .memory(let customers): customers[position]
    case .file(let file): try file.customer(at: position)
    }
  }

  /// Sets the app account token of a purchase as Apple does: on its latest transaction at the
  /// world's clock (the purchase itself, or a subscription's latest renewal) and on any later
  /// one, never on earlier renewals; records the change of each, and writes it to the token
  /// log first, if there is one.
  ///
  /// - Returns: the modification.
  /// - Throws: ``WorldFileError`` when the world file changed since the server started,
  ///   ``TokenChangeLog/Failure`` when the change cannot be written to the log (nothing is
  ///   changed then).
  func setAppAccountToken(
    _ token: String, originalTransactionId: String, customerAt position: Int
  ) throws -> Modification {
    // Read before any lock: a read from the file must not hold the others up.
    let original = try generatedCustomer(at: position)
    return try changes.withLock { count throws(TokenChangeLog.Failure) -> Modification in
      try tokenLog?.append(
        .init(originalTransactionId: originalTransactionId, token: token, clock: now))
      count += 1
      let modification = Modification(version: count, at: now.adding(milliseconds: count))
      apply(
        token, originalTransactionId: originalTransactionId, asOf: now, position: position,
        original: original, modification: modification)
      return modification
    }
  }

  /// Makes again the changes of a token log, in their order, each as of its own clock: what a
  /// simulator started again holds. Changes made at a later clock than this server's are not
  /// part of its world yet, and are left out.
  ///
  /// - Parameter logged: the log's changes, oldest first.
  /// - Throws: ``WorldFileError`` when the world file cannot be read.
  func replay(_ logged: [TokenChangeLog.Change]) throws(WorldFileError) {
    for change in logged where change.clock <= now {
      guard let position = try customerPosition(owning: change.originalTransactionId) else {
        continue
      }
      let original = try generatedCustomer(at: position)
      changes.withLock { count in
        count += 1
        apply(
          change.token, originalTransactionId: change.originalTransactionId, asOf: change.clock,
          position: position, original: original,
          modification: Modification(version: count, at: now.adding(milliseconds: count)))
      }
    }
  }

  /// Sets `token` on the purchase's latest transaction at `instant` and every later one.
  private func apply(
    _ token: String, originalTransactionId: String, asOf instant: Timestamp, position: Int,
    original: Customer, modification: Modification
  ) {
    shard(position).changed.withLock { changed in
      var customer = changed[position] ?? Changed(customer: original, modifications: [:])
      let purchase = customer.customer.transactions.indices.filter {
        customer.customer.transactions[$0].originalTransactionId == originalTransactionId
      }
      let latest =
        purchase.map { customer.customer.transactions[$0].purchaseDate }.filter { $0 <= instant }
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
  }

  /// Calls `body` with every customer in turn, with the server's changes, without holding
  /// them all.
  ///
  /// - Throws: ``WorldFileError`` when the world file changed since the server started, or
  ///   what `body` throws.
  func forEachCustomer(_ body: (Int, Customer) throws -> Void) throws {
    for position in 0..<customerCount {
      try body(position, try snapshot(of: position).customer)
    }
  }

  /// The world as it is now, with the server's changes (every customer in memory at once).
  ///
  /// - Throws: ``WorldFileError`` when the world file changed since the server started.
  func world() throws -> World {
    var world = template
    try forEachCustomer { _, customer in world.customers.append(customer) }
    return world
  }
}
