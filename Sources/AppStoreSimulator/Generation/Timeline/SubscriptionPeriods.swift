import Chronology
import LegacyReceipts

/// Plays one of a customer's own subscriptions on from the world's clock to the horizon,
/// period by period: in each period a refund, an immediate upgrade, a churn or a downgrade may
/// happen; at each renewal billing may fail (then recover, or Apple gives up after 60 days).
/// Lapsed subscriptions may start again, refunds may be reversed. Every change becomes a dated
/// transaction fact or renewal event after the clock.
struct SubscriptionPeriods {
  let window: TimelineWindow
  let gracePeriodDays: Int
  let rates: TimelineRates
  let products: [String: SimulatedProduct]

  private static let day = Timestamp.millisecondsPerDay
  /// How long Apple retries a failed renewal before the subscription expires.
  private static let billingRetryDays: Int64 = 60

  /// The renewal events and story lines an extension adds to one subscription.
  private struct Changes {
    var events: [(at: Timestamp, state: RenewalState)] = []
    var story: [String] = []
  }

  /// Extends one subscription the customer bought.
  ///
  /// - Parameters:
  ///   - offset: the subscription's position in `customer.renewals`.
  ///   - customer: the customer.
  ///   - reversible: whether a standing refund may be reversed (not for family organisers,
  ///     whose members' copies would have to follow).
  ///   - lapsedComebackChance: the chance that a subscription lapsed at the clock starts again.
  ///   - ids: the customer's id allocator.
  ///   - random: the customer's extension stream.
  func extend(
    subscription offset: Int, of customer: inout Customer, reversible: Bool,
    lapsedComebackChance: Double, ids: inout IdentifierAllocator, random: inout SeededRandom
  ) {
    let timeline = customer.renewals[offset]
    let original = timeline.originalTransactionId
    guard
      let lastIndex = customer.transactions.indices.filter({
        customer.transactions[$0].originalTransactionId == original
      }).max(by: {
        (customer.transactions[$0].purchaseDate, customer.transactions[$0].transactionId) < (
          customer.transactions[$1].purchaseDate, customer.transactions[$1].transactionId
        )
      })
    else { return }
    let last = customer.transactions[lastIndex]
    let state =
      timeline.state(at: now)
      ?? RenewalState(autoRenewStatus: true, autoRenewProductId: last.productId)
    let product = products[last.productId] ?? products[state.autoRenewProductId]
    var changes = Changes()
    defer { apply(changes, to: offset, of: &customer) }
    guard let product else { return }

    if let revocation = last.revocation, revocation.isInEffect(at: now) {
      guard reversible, revocation.kind != .familyRevoke,
        random.chance(window.chance(per30Days: rates.refundReversalPer30Days))
      else { return }
      let reversal = instant(after: now, random: &random)
      customer.transactions[lastIndex].revocation?.reversedAt = reversal
      changes.events.append(
        (reversal, RenewalState(autoRenewStatus: false, autoRenewProductId: product.id)))
      changes.story.append("the refund of \(last.productId) was reversed on \(reversal)")
      if let expires = last.expiresDate, expires > reversal, expires <= horizon {
        changes.events.append(
          (
            expires,
            RenewalState(
              autoRenewStatus: false, autoRenewProductId: product.id,
              expirationIntent: .customerCancelled)
          ))
      }
      return
    }

    var current = lastIndex
    if state.isInBillingRetryPeriod {
      // Failing since the last period ended: recover, or Apple gives up.
      let failedAt = last.expiresDate ?? now
      let giveUp = failedAt.adding(milliseconds: Self.billingRetryDays * Self.day)
      guard giveUp > now else { return }
      let recovery = instant(after: now, random: &random)
      if random.chance(rates.billingRecovery), recovery < giveUp {
        let next = products[state.autoRenewProductId] ?? product
        changes.events.append(
          (recovery, RenewalState(autoRenewStatus: true, autoRenewProductId: next.id)))
        changes.story.append("billing recovered on \(recovery)")
        current = addPeriod(
          to: &customer, original: original, start: recovery, product: next, reason: "RENEWAL",
          ids: &ids)
      } else {
        if giveUp <= horizon {
          changes.events.append(
            (
              giveUp,
              RenewalState(
                autoRenewStatus: false, autoRenewProductId: product.id,
                expirationIntent: .billingError)
            ))
          changes.story.append("billing retry ended on \(giveUp)")
        }
        return
      }
    } else if let expires = last.expiresDate, expires <= now {
      // Lapsed at the clock: perhaps the customer comes back.
      guard random.chance(lapsedComebackChance) else { return }
      let restart = instant(after: now, random: &random)
      changes.events.append(
        (restart, RenewalState(autoRenewStatus: true, autoRenewProductId: product.id)))
      changes.story.append("came back on \(restart)")
      current = addPeriod(
        to: &customer, original: original, start: restart, product: product, reason: "PURCHASE",
        ids: &ids)
    } else if !state.autoRenewStatus {
      // Turned off before the clock: it expires at the end of the period.
      if let expires = last.expiresDate, expires <= horizon {
        let intent: ExpirationIntent =
          state.priceIncreaseStatus == 0 ? .declinedPriceIncrease : .customerCancelled
        changes.events.append(
          (
            expires,
            RenewalState(
              autoRenewStatus: false, autoRenewProductId: state.autoRenewProductId,
              expirationIntent: intent)
          ))
        changes.story.append("expired on \(expires)")
      }
      return
    }
    run(
      from: current, of: &customer, original: original,
      product: products[customer.transactions[current].productId] ?? product, changes: &changes,
      ids: &ids, random: &random)
  }

  /// Starts a new subscription for a customer who has none.
  func subscribe(
    _ customer: inout Customer, ids: inout IdentifierAllocator, random: inout SeededRandom
  ) {
    let monthly = products.values.filter { $0.kind == .autoRenewable && $0.periodDays == 30 }
      .sorted { $0.id < $1.id }
    guard !monthly.isEmpty else { return }
    let product = monthly[random.int(in: 0...(monthly.count - 1))]
    let start = instant(after: now, random: &random)
    let first = ids.transactionId()
    customer.renewals.append(
      RenewalTimeline(
        originalTransactionId: first.transactionId, group: product.group ?? "unknown",
        events: [(start, RenewalState(autoRenewStatus: true, autoRenewProductId: product.id))]))
    let index = appendPeriod(
      to: &customer, ids: first, original: first.transactionId, originalPurchase: start,
      start: start, product: product, reason: "PURCHASE")
    var changes = Changes(story: ["subscribed to \(product.id) on \(start)"])
    run(
      from: index, of: &customer, original: first.transactionId, product: product,
      changes: &changes, ids: &ids, random: &random)
    apply(changes, to: customer.renewals.count - 1, of: &customer)
  }

  // MARK: - Periods

  /// Period after period from the transaction at `index` until the subscription ends or a
  /// period runs past the horizon.
  private func run(
    from index: Int, of customer: inout Customer, original: String, product start: SimulatedProduct,
    changes: inout Changes, ids: inout IdentifierAllocator, random: inout SeededRandom
  ) {
    var current = index
    var product = start
    var pending: SimulatedProduct?
    while let expires = customer.transactions[current].expiresDate {
      let from = max(now, customer.transactions[current].purchaseDate)
      if random.chance(rates.refundPerPeriod) {
        let moment = instant(after: from, random: &random)
        if moment < expires {
          let full = random.chance(0.75)
          customer.transactions[current].revocation = Revocation(
            date: moment, kind: full ? .refundFull : .refundProrated,
            reason: random.chance(0.3) ? 1 : 0,
            percentageMilli: full ? nil : Int64(random.int(in: 20...80)) * 1000)
          changes.events.append(
            (
              moment,
              RenewalState(
                autoRenewStatus: false, autoRenewProductId: product.id,
                expirationIntent: .customerCancelled)
            ))
          changes.story.append("\(full ? "refunded" : "refunded in part") on \(moment)")
          return
        }
      }
      if random.chance(rates.upgradePerPeriod), let target = neighbour(of: product, levels: -1) {
        let moment = instant(after: from, random: &random)
        if moment < expires {
          customer.transactions[current].upgradedAt = moment
          changes.events.append(
            (moment, RenewalState(autoRenewStatus: true, autoRenewProductId: target.id)))
          changes.story.append("upgraded to \(target.id) on \(moment)")
          product = target
          pending = nil
          current = addPeriod(
            to: &customer, original: original, start: moment, product: target,
            reason: "PURCHASE", ids: &ids)
          continue
        }
      }
      if random.chance(rates.churnPerPeriod) {
        let off = from.adding(
          milliseconds: 1
            + Int64(random.unit() * Double(max(1, expires.milliseconds(since: from)) - 1)))
        if off <= horizon {
          changes.events.append(
            (off, RenewalState(autoRenewStatus: false, autoRenewProductId: product.id)))
        }
        if expires <= horizon {
          changes.events.append(
            (
              expires,
              RenewalState(
                autoRenewStatus: false, autoRenewProductId: product.id,
                expirationIntent: .customerCancelled)
            ))
          changes.story.append("expired on \(expires)")
        }
        return
      }
      if random.chance(rates.downgradePerPeriod), let lower = neighbour(of: product, levels: 1) {
        let moment = from.adding(milliseconds: max(1, expires.milliseconds(since: from) / 2))
        if moment <= horizon {
          changes.events.append(
            (moment, RenewalState(autoRenewStatus: true, autoRenewProductId: lower.id)))
          changes.story.append("downgrade to \(lower.id) chosen on \(moment), effective at renewal")
          pending = lower
        }
      }
      guard expires <= horizon else { return }
      let next = pending ?? product
      pending = nil
      if random.chance(rates.billingFailurePerRenewal) {
        let grace = expires.adding(milliseconds: Int64(gracePeriodDays) * Self.day)
        changes.events.append(
          (
            expires,
            RenewalState(
              autoRenewStatus: true, autoRenewProductId: next.id, expirationIntent: .billingError,
              isInBillingRetryPeriod: true, gracePeriodExpiresDate: grace)
          ))
        changes.story.append("billing failed on \(expires)")
        if random.chance(rates.billingRecovery) {
          let recovery = expires.adding(milliseconds: Int64(random.int(in: 1...30)) * Self.day)
          guard recovery <= horizon else { return }
          changes.events.append(
            (recovery, RenewalState(autoRenewStatus: true, autoRenewProductId: next.id)))
          changes.story.append("billing recovered on \(recovery)")
          product = next
          current = addPeriod(
            to: &customer, original: original, start: recovery, product: next, reason: "RENEWAL",
            ids: &ids)
          continue
        }
        let giveUp = expires.adding(milliseconds: Self.billingRetryDays * Self.day)
        if giveUp <= horizon {
          changes.events.append(
            (
              giveUp,
              RenewalState(
                autoRenewStatus: false, autoRenewProductId: next.id,
                expirationIntent: .billingError)
            ))
          changes.story.append("billing retry ended on \(giveUp)")
        }
        return
      }
      product = next
      current = addPeriod(
        to: &customer, original: original, start: expires, product: next, reason: "RENEWAL",
        ids: &ids)
    }
  }

  /// The product `levels` levels away in the same group with the same period (level 1 is the
  /// highest, so -1 is an upgrade).
  private func neighbour(of product: SimulatedProduct, levels: Int) -> SimulatedProduct? {
    products.values.first {
      $0.group == product.group && $0.periodDays == product.periodDays
        && $0.level == product.level + levels && $0.kind == .autoRenewable
    }
  }

  /// Adds a period of the subscription to the customer.
  ///
  /// - Returns: the new transaction's index.
  private func addPeriod(
    to customer: inout Customer, original: String, start: Timestamp, product: SimulatedProduct,
    reason: String, ids: inout IdentifierAllocator
  ) -> Int {
    let originalPurchase =
      customer.transactions.filter { $0.originalTransactionId == original }.map(\.purchaseDate)
      .min() ?? start
    return appendPeriod(
      to: &customer, ids: ids.transactionId(), original: original,
      originalPurchase: originalPurchase, start: start, product: product, reason: reason)
  }

  private func appendPeriod(
    to customer: inout Customer, ids: (transactionId: String, webOrderLineItemId: String),
    original: String, originalPurchase: Timestamp, start: Timestamp, product: SimulatedProduct,
    reason: String
  ) -> Int {
    customer.transactions.append(
      SimulatedTransaction(
        transactionId: ids.transactionId, originalTransactionId: original,
        webOrderLineItemId: ids.webOrderLineItemId, productId: product.id, kind: .autoRenewable,
        group: product.group, purchaseDate: start, originalPurchaseDate: originalPurchase,
        expiresDate: start.adding(milliseconds: Int64(product.periodDays ?? 30) * Self.day),
        ownership: .purchased, reason: reason, priceMilli: product.priceMilli))
    return customer.transactions.count - 1
  }

  private func apply(_ changes: Changes, to offset: Int, of customer: inout Customer) {
    guard !changes.events.isEmpty || !changes.story.isEmpty else { return }
    var events = customer.renewals[offset].events
    events += changes.events
    // Stable: events at one instant keep the order they happened in.
    customer.renewals[offset].events = events.enumerated().sorted {
      ($0.element.at, $0.offset) < ($1.element.at, $1.offset)
    }.map(\.element)
    customer.story += changes.story
  }

  private var now: Timestamp { window.now }
  private var horizon: Timestamp { window.horizon }

  private func instant(after start: Timestamp, random: inout SeededRandom) -> Timestamp {
    window.instant(after: start, random: &random)
  }
}
