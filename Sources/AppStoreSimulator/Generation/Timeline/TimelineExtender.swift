import Chronology
import LegacyReceipts

/// Plays a generated world on past its clock for some days: subscriptions renew, churn, fail to
/// bill and recover, are refunded, upgraded and downgraded; refunds are reversed; lapsed
/// customers come back and new ones subscribe; one-time products are bought and refunded; family
/// members leave. Every change is a dated fact, so the simulator shows it (and its notification)
/// exactly from its instant on, and nothing of it before.
///
/// The legacy records are untouched: they were all captured before the clock. Each customer
/// draws from its own random stream, separate from the streams that made the world, so the
/// world up to its clock is the same with or without the extension.
struct TimelineExtender {
  /// From the world's clock to the end of the timeline.
  let window: TimelineWindow
  /// The app's billing grace period, in days.
  let gracePeriodDays: Int
  /// How often things happen.
  let rates: TimelineRates
  /// The catalogue, by id.
  let products: [String: SimulatedProduct]

  /// Creates an extender for a world and a number of days.
  /// Where the world's customer ids are numbered from.
  let identifierBase: Int

  init(world: World, days: Int, rates: TimelineRates) {
    identifierBase = world.identifierBase
    window = TimelineWindow(
      now: world.now,
      horizon: world.now.adding(milliseconds: Int64(days) * Timestamp.millisecondsPerDay))
    gracePeriodDays = world.gracePeriodDays
    self.rates = rates
    var products: [String: SimulatedProduct] = [:]
    for product in world.products { products[product.id] = product }
    self.products = products
  }

  private var now: Timestamp { window.now }

  /// The random stream of the customer at `index`: numbered by its place in the whole world,
  /// so a world generated in parts extends each customer as the whole world would.
  private func stream(of index: Int) -> UInt64 {
    0x7100_0000_0000 + UInt64(identifierBase + index)
  }

  /// Extends every customer's timeline to the horizon and records the horizon in the world.
  func extend(_ world: inout World) {
    let organisers = FamilyLinks(world: world)
    for index in world.customers.indices where !world.customers[index].isForgotten {
      guard !organisers.isMember(index) else { continue }
      var random = SeededRandom(seed: world.seed, stream: stream(of: index))
      var customer = world.customers[index]
      extend(&customer, sharesWithFamily: organisers.isOrganiser(index), random: &random)
      world.customers[index] = customer
    }
    // Members follow their organiser's extended subscription, then live their own lives.
    for index in world.customers.indices where organisers.isMember(index) {
      guard let organiser = organisers.organiser(of: index) else { continue }
      var random = SeededRandom(seed: world.seed, stream: stream(of: index))
      var member = world.customers[index]
      FamilyMirror(
        window: window, leaveChance: window.chance(per30Days: rates.familyLeavePer30Days),
        identifierBase: identifierBase
      ).follow(world.customers[organiser], member: &member, random: &random)
      extend(&member, sharesWithFamily: false, random: &random)
      world.customers[index] = member
    }
    world.timelineEnd = window.horizon
  }

  // MARK: - One customer

  private func extend(
    _ customer: inout Customer, sharesWithFamily: Bool, random: inout SeededRandom
  ) {
    var ids = IdentifierAllocator(
      customer: identifierBase + customer.index, environment: customer.environment)
    ids.skip(past: customer.transactions.map(\.transactionId))
    let periods = SubscriptionPeriods(
      window: window, gracePeriodDays: gracePeriodDays, rates: rates, products: products)
    for offset in customer.renewals.indices {
      let original = customer.renewals[offset].originalTransactionId
      let isOwn = customer.transactions.contains {
        $0.originalTransactionId == original && $0.ownership == .purchased
      }
      guard isOwn else { continue }
      periods.extend(
        subscription: offset, of: &customer, reversible: !sharesWithFamily,
        lapsedComebackChance: window.chance(per30Days: rates.resubscribePer30Days), ids: &ids,
        random: &random)
    }
    if customer.renewals.isEmpty,
      random.chance(window.chance(per30Days: rates.newSubscriberPer30Days))
    {
      periods.subscribe(&customer, ids: &ids, random: &random)
    }
    extendOneTimePurchases(&customer, random: &random)
    customer.transactions.sort {
      ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId)
    }
  }

  /// Refund reversals of one-time purchases, and new one-time purchases (some refunded).
  private func extendOneTimePurchases(_ customer: inout Customer, random: inout SeededRandom) {
    var ids = IdentifierAllocator(
      customer: identifierBase + customer.index, environment: customer.environment)
    ids.skip(past: customer.transactions.map(\.transactionId))
    for offset in customer.transactions.indices {
      let transaction = customer.transactions[offset]
      guard transaction.kind == .nonConsumable, transaction.ownership == .purchased,
        let revocation = transaction.revocation, revocation.kind != .familyRevoke,
        revocation.isInEffect(at: now),
        random.chance(window.chance(per30Days: rates.refundReversalPer30Days))
      else { continue }
      customer.transactions[offset].revocation?.reversedAt = instant(after: now, random: &random)
      customer.story.append(
        "the refund of \(transaction.productId) was reversed on \(customer.transactions[offset].revocation?.reversedAt ?? window.horizon)"
      )
    }
    guard random.chance(window.chance(per30Days: rates.oneTimePurchasePer30Days)) else { return }
    let owned = Set(customer.transactions.map(\.productId))
    let candidates = products.values.filter { $0.kind == .nonConsumable && !owned.contains($0.id) }
      .sorted { $0.id < $1.id }
    guard !candidates.isEmpty else { return }
    let product = candidates[random.int(in: 0...(candidates.count - 1))]
    let moment = instant(after: now, random: &random)
    let next = ids.transactionId()
    var purchase = SimulatedTransaction(
      transactionId: next.transactionId, originalTransactionId: next.transactionId,
      webOrderLineItemId: nil, productId: product.id, kind: product.kind, group: nil,
      purchaseDate: moment, originalPurchaseDate: moment, expiresDate: nil,
      ownership: .purchased, reason: "PURCHASE", priceMilli: product.priceMilli)
    customer.story.append("bought \(product.id) on \(moment)")
    if random.chance(rates.oneTimeRefund) {
      let refund = instant(after: moment, random: &random)
      purchase.revocation = Revocation(
        date: refund, kind: .refundFull, reason: random.chance(0.5) ? 1 : 0)
      customer.story.append("refunded \(product.id) on \(refund)")
    }
    customer.transactions.append(purchase)
  }

  private func instant(after start: Timestamp, random: inout SeededRandom) -> Timestamp {
    window.instant(after: start, random: &random)
  }
}
