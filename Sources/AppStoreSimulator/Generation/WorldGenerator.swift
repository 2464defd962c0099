import Chronology
import CryptoSupport
import LegacyReceipts

/// Generates a world: customers with realistic histories, the team's accounts linked to them
/// (including an account holding two Apple Accounts and an Apple Account used by two accounts),
/// and the plan of the legacy records the team stored. Deterministic for a given seed and
/// configuration; each account draws from its own random stream.
public struct WorldGenerator: Sendable {
  /// The knobs.
  public var configuration: GeneratorConfiguration

  /// Creates a generator.
  ///
  /// - Parameter configuration: the knobs.
  public init(configuration: GeneratorConfiguration = GeneratorConfiguration()) {
    self.configuration = configuration
  }

  private var now: Timestamp { configuration.now }

  /// Generates a world.
  ///
  /// - Parameters:
  ///   - count: how many team accounts.
  ///   - seed: the seed.
  /// - Returns: the world.
  public func generate(accounts count: Int, seed: UInt64) -> World {
    generatePart(
      seed: seed, total: configuration.numbering.firstAccount + count, partSize: count)
  }

  /// Generates the accounts of a world of `total` accounts from ``GeneratorConfiguration/numbering``
  /// on, stopping once the part holds `partSize` accounts — but never inside one draw of
  /// accounts that belong together (a family, an Apple Account shared by two accounts), so
  /// parts generated one after another, each numbered where the last stopped, hold exactly the
  /// accounts and customers a whole world of `total` accounts holds.
  ///
  /// - Parameters:
  ///   - seed: the seed.
  ///   - total: how many accounts the whole world holds.
  ///   - partSize: how many accounts this part should hold at least (fewer only at the end).
  /// - Returns: the part, its customers numbered from ``World/identifierBase``.
  func generatePart(seed: UInt64, total count: Int, partSize: Int) -> World {
    let first = configuration.numbering.firstAccount
    var world = World(seed: seed, now: now, gracePeriodDays: configuration.gracePeriodDays)
    world.identifierBase = configuration.numbering.firstCustomer
    while world.accounts.count < partSize && first + world.accounts.count < count {
      let number = world.accounts.count
      var random = SeededRandom(seed: seed, stream: UInt64(first + number) + 1)
      let remaining = count - first - world.accounts.count
      let structure: AccountStructure = random.pick([
        (.twoAppleAccounts, configuration.twoAppleAccountsRate),
        (.sharedAppleAccount, remaining >= 2 ? configuration.sharedAppleAccountRate : 0),
        (.errorOnly, configuration.errorOnlyRate),
        (.forgotten, configuration.forgottenRate),
        (
          .single,
          1 - configuration.twoAppleAccountsRate - configuration.sharedAppleAccountRate
            - configuration.errorOnlyRate - configuration.forgottenRate
        ),
      ])
      switch structure {
      case .single:
        let archetype = random.pick(configuration.archetypeWeights)
        let customer = addCustomer(archetype, to: &world, random: &random)
        addAccount(for: [customer], to: &world, random: &random)
        if archetype == .familyOrganiser {
          for _ in 0..<random.int(in: 1...3) where first + world.accounts.count < count {
            let member = addFamilyMember(of: customer, to: &world, random: &random)
            addAccount(for: [member], to: &world, random: &random)
          }
        }
      case .twoAppleAccounts:
        let former = addCustomer(.churned, to: &world, random: &random)
        let current = addCustomer(
          random.pick([(.loyalSubscriber, 3), (.oneTimeBuyer, 1), (.billingTrouble, 1)]),
          to: &world, random: &random)
        world.customers[former].story.append(
          "the team account later switched to another Apple Account")
        addAccount(for: [former, current], to: &world, random: &random)
      case .sharedAppleAccount:
        let customer = addCustomer(
          random.pick([(.loyalSubscriber, 3), (.churned, 1)]), to: &world, random: &random)
        world.customers[customer].story.append("used by two team accounts")
        addAccount(for: [customer], to: &world, random: &random)
        addAccount(for: [customer], to: &world, random: &random)
      case .errorOnly:
        let customer = addCustomer(
          random.pick(configuration.archetypeWeights), to: &world, random: &random)
        let code: Int64 = random.pick([
          (21002, 3), (21003, 1), (21005, 1), (21009, 1), (21010, 3), (21104, 1),
        ])
        let captured = captureInstant(for: world.customers[customer], random: &random)
        world.accounts.append(
          TeamAccount(
            id: accountId(world.accounts.count), customers: [customer],
            snapshots: [
              LegacySnapshot(
                customer: customer, capturedAt: captured, style: .errorStatus, status: code)
            ]))
      case .forgotten:
        let customer = addCustomer(
          .loyalSubscriber, to: &world, random: &random, environment: .sandbox)
        world.customers[customer].isForgotten = true
        world.customers[customer].story.append(
          "the sandbox account was cleared: the App Store no longer knows its ids")
        addAccount(for: [customer], to: &world, random: &random)
      }
    }
    if configuration.daysAfter > 0 {
      TimelineExtender(
        world: world, days: configuration.daysAfter, rates: configuration.timelineRates
      ).extend(&world)
      if let text = configuration.appAccountTokenNamespace,
        let namespace = NameBasedUUID.bytes(of: text)
      {
        PostCutoverTokens(namespace: namespace).assign(to: &world)
      }
    }
    return world
  }

  private enum AccountStructure {
    case single, twoAppleAccounts, sharedAppleAccount, errorOnly, forgotten
  }

  private func accountId(_ number: Int) -> String {
    let digits = String(configuration.numbering.firstAccount + number + 1)
    return "u" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
  }

  // MARK: - Accounts and snapshots

  private func addAccount(for customers: [Int], to world: inout World, random: inout SeededRandom) {
    var snapshots: [LegacySnapshot] = []
    for customer in customers {
      let latest = captureInstant(for: world.customers[customer], random: &random)
      if random.chance(configuration.secondSnapshotRate) {
        let earlier = Timestamp(
          millisecondsSince1970: world.customers[customer].firstSeen.millisecondsSince1970
            + Int64(
              random.unit()
                * Double(latest.milliseconds(since: world.customers[customer].firstSeen))))
        snapshots.append(snapshot(of: world.customers[customer], at: earlier, random: &random))
      }
      snapshots.append(snapshot(of: world.customers[customer], at: latest, random: &random))
    }
    var flaws: [LegacyLogicFlaw] = []
    for (flaw, rate) in configuration.tableFlawRates where random.chance(rate) {
      flaws.append(flaw)
    }
    var recipe = SeededRandom(
      seed: world.seed,
      stream: Self.recipeFlawStream
        &+ UInt64(configuration.numbering.firstAccount + world.accounts.count))
    for (flaw, rate) in configuration.recipeFlawRates where recipe.chance(rate) {
      flaws.append(flaw)
    }
    for (flaw, rate) in configuration.shippedFlawRates where recipe.chance(rate) {
      flaws.append(flaw)
    }
    storedIds(for: customers, world: world, snapshots: &snapshots)
    world.accounts.append(
      TeamAccount(
        id: accountId(world.accounts.count), customers: customers,
        snapshots: snapshots.sorted { $0.capturedAt < $1.capturedAt },
        tableFlaws: flaws))
  }

  /// What the team stored besides (or instead of) receipts: for some accounts only the
  /// customer's app transaction id, or only an order id; for others the app transaction id
  /// beside every record. Drawn from a stream of the account's own, so a seed that made a world
  /// before makes the same customers, and only these accounts' records change.
  private func storedIds(
    for customers: [Int], world: World, snapshots: inout [LegacySnapshot]
  ) {
    var random = SeededRandom(
      seed: world.seed,
      stream: Self.storedIdStream
        &+ UInt64(configuration.numbering.firstAccount + world.accounts.count))
    let roll = random.unit()
    if customers.count == 1, let index = customers.first, let latest = snapshots.last {
      let customer = world.customers[index]
      let writer = LegacyResponseWriter(world: world)
      if roll < configuration.appTransactionIdOnlyRate && !customer.isForgotten {
        snapshots = [
          LegacySnapshot(
            customer: index, capturedAt: latest.capturedAt, style: .appTransactionIdOnly)
        ]
        return
      }
      if roll < configuration.appTransactionIdOnlyRate + configuration.orderIdOnlyRate,
        customer.environment == .production, !customer.isForgotten,
        writer.orderTransaction(of: customer, at: latest.capturedAt) != nil
      {
        snapshots = [
          LegacySnapshot(customer: index, capturedAt: latest.capturedAt, style: .orderIdOnly)
        ]
        return
      }
    }
    let storesAppTransactionId = random.chance(configuration.appTransactionIdRate)
    for index in snapshots.indices {
      snapshots[index].storesAppTransactionId = storesAppTransactionId
      snapshots[index].listsOldestFirst = random.chance(configuration.oldestFirstRate)
    }
    // Some receipts were stored right after a consumable purchase, before the app finished
    // it: the consumable is still in `in_app`.
    guard let last = snapshots.indices.last else { return }
    let customer = world.customers[snapshots[last].customer]
    let consumable = customer.transactions.last {
      $0.kind == .consumable && $0.purchaseDate < snapshots[last].capturedAt
    }
    if random.chance(configuration.unfinishedConsumableRate), let consumable {
      snapshots[last].capturedAt = consumable.purchaseDate.adding(
        milliseconds: Timestamp.millisecondsPerMinute)
      snapshots[last].holdsUnfinishedConsumables = true
    }
  }

  /// When the team last stored the customer's receipt: after the first purchase (apps send
  /// receipts when something happens), at least a day before now — and, for half of the
  /// customers whose history has a dated event (a refund, an upgrade, a failed renewal, a
  /// family revocation), in the days just before that event, which is when a snapshot goes
  /// stale in the ways the report must explain.
  private func captureInstant(for customer: Customer, random: inout SeededRandom) -> Timestamp {
    let first = customer.transactions.map(\.purchaseDate).min() ?? customer.firstSeen
    let earliest = first.adding(milliseconds: Timestamp.millisecondsPerHour)
    let latest = now.adding(milliseconds: -Timestamp.millisecondsPerDay)
    guard earliest < latest else { return latest }
    let events = notableEvents(of: customer).filter { $0 > earliest && $0 <= latest }
    if !events.isEmpty && random.chance(0.5) {
      let event = events[random.int(in: 0...(events.count - 1))]
      let from = max(earliest, event.adding(milliseconds: -days(10)))
      return from.adding(
        milliseconds: Int64(random.unit() * Double(event.milliseconds(since: from))))
    }
    return earliest.adding(
      milliseconds: Int64(random.unit() * Double(latest.milliseconds(since: earliest))))
  }

  /// The dated changes in a customer's history.
  private func notableEvents(of customer: Customer) -> [Timestamp] {
    var events: [Timestamp] = []
    for transaction in customer.transactions {
      if let revocation = transaction.revocation { events.append(revocation.date) }
      if let upgraded = transaction.upgradedAt { events.append(upgraded) }
    }
    for timeline in customer.renewals {
      for (instant, state) in timeline.events where state.isInBillingRetryPeriod {
        events.append(instant)
      }
    }
    return events.sorted()
  }

  private func snapshot(of customer: Customer, at instant: Timestamp, random: inout SeededRandom)
    -> LegacySnapshot
  {
    let subscriptions = Set(
      customer.transactions.filter { $0.kind == .autoRenewable && $0.purchaseDate <= instant }.map(
        \.originalTransactionId))
    let others = customer.transactions.filter {
      $0.kind != .autoRenewable && $0.kind != .consumable && $0.purchaseDate <= instant
    }
    var style = LegacySnapshot.Style.modern
    if subscriptions.count == 1 && others.isEmpty && random.chance(configuration.iOS6Rate) {
      style = .iOS6
    } else if random.chance(configuration.rawReceiptRate) {
      style = .rawReceipt
    }
    return LegacySnapshot(
      customer: customer.index, capturedAt: instant, style: style,
      excludesOldTransactions: random.chance(configuration.excludeOldTransactionsRate),
      duplicatesEntries: random.chance(configuration.duplicateEntriesRate),
      usesJSONNumbers: random.chance(configuration.jsonNumbersRate),
      marksUpgradesByCancellation: random.chance(configuration.upgradeByCancellationRate))
  }

  // MARK: - Customers

  private func addCustomer(
    _ archetype: CustomerArchetype, to world: inout World, random: inout SeededRandom,
    environment requested: SimulatedEnvironment? = nil
  ) -> Int {
    let index = world.customers.count
    let environment = requested ?? (archetype == .sandboxTester ? .sandbox : .production)
    var ids = IdentifierAllocator(
      customer: world.identifierBase + index, environment: environment)
    let age = archetype == .sandboxTester ? random.int(in: 2...120) : random.int(in: 20...900)
    var customer = Customer(
      index: index, appTransactionId: ids.appTransactionId, environment: environment,
      firstSeen: now.adding(milliseconds: -Int64(age) * Timestamp.millisecondsPerDay),
      story: [archetype.rawValue])
    if random.chance(0.3) {
      customer.restoredPurchasesAt = customer.firstSeen.adding(
        milliseconds: Int64(random.unit() * Double(now.milliseconds(since: customer.firstSeen))))
    }
    let simulator = SubscriptionSimulator(now: now, gracePeriodDays: world.gracePeriodDays)
    for plan in plans(for: archetype, customer: customer, random: &random) {
      let outcome = simulator.simulate(plan, ids: &ids, random: &random)
      customer.transactions += outcome.transactions
      customer.renewals.append(outcome.timeline)
      customer.story += outcome.story
    }
    customer.transactions += oneTimePurchases(
      for: archetype, customer: customer, ids: &ids, random: &random)
    customer.transactions.sort {
      ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId)
    }
    world.customers.append(customer)
    return index
  }

  private func product(_ id: String) -> SimulatedProduct {
    SimulatedProduct.catalogue.first { $0.id == id } ?? SimulatedProduct.catalogue[0]
  }

  /// Where the accounts' streams for ``GeneratorConfiguration/recipeFlawRates`` start: far
  /// above the per-iteration streams (one per account at most).
  private static let recipeFlawStream: UInt64 = 1 << 48

  /// Where the accounts' streams for the ids stored beside or instead of receipts start: far
  /// above the others.
  private static let storedIdStream: UInt64 = 1 << 49

  private func days(_ count: Int) -> Int64 { Int64(count) * Timestamp.millisecondsPerDay }

  /// A subscription start some days after the customer arrived, and how many whole periods of
  /// `product` fit between it and now.
  private func start(for customer: Customer, product: SimulatedProduct, random: inout SeededRandom)
    -> (Timestamp, Int)
  {
    let span = now.milliseconds(since: customer.firstSeen)
    let start = customer.firstSeen.adding(milliseconds: Int64(random.unit() * 0.3 * Double(span)))
    let length = days(product.periodDays ?? 30)
    return (start, Int(now.milliseconds(since: start) / length))
  }

  private func subscriptionProduct(random: inout SeededRandom) -> SimulatedProduct {
    product(
      random.pick([
        ("com.example.pro.monthly", 40.0), ("com.example.pro.yearly", 12),
        ("com.example.plus.monthly", 20),
        ("com.example.plus.yearly", 8), ("com.example.storage.monthly", 15),
        ("com.example.storage.yearly", 5),
      ]))
  }

  private func plans(
    for archetype: CustomerArchetype, customer: Customer, random: inout SeededRandom
  ) -> [SubscriptionPlan] {
    switch archetype {
    case .neverPurchased, .consumablesOnly, .oneTimeBuyer:
      return []
    case .loyalSubscriber, .sandboxTester:
      let chosen = subscriptionProduct(random: &random)
      let (begin, _) = start(for: customer, product: chosen, random: &random)
      return [
        SubscriptionPlan(product: chosen, start: begin, introductoryTrial: random.chance(0.4))
      ]
    case .familyOrganiser:
      let chosen = product("com.example.plus.yearly")
      let (begin, periods) = start(for: customer, product: chosen, random: &random)
      var plan = SubscriptionPlan(product: chosen, start: begin, introductoryTrial: false)
      if random.chance(0.2) && periods >= 1 {
        plan.ending = .churn(afterPeriods: random.int(in: 1...periods), intent: 1)
      }
      return [plan]
    case .churned, .wonBack:
      return [churnPlan(customer: customer, comeback: archetype == .wonBack, random: &random)]
    case .billingTrouble:
      return [billingPlan(customer: customer, random: &random)]
    case .changedPlan:
      return [changePlan(customer: customer, random: &random)]
    case .refunded:
      return [refundPlan(customer: customer, random: &random)]
    case .complex:
      var plans = [
        random.pick([
          (churnPlan(customer: customer, comeback: random.chance(0.5), random: &random), 1.0),
          (billingPlan(customer: customer, random: &random), 1),
          (changePlan(customer: customer, random: &random), 1),
          (refundPlan(customer: customer, random: &random), 1),
        ])
      ]
      let storage = product(
        random.chance(0.7) ? "com.example.storage.monthly" : "com.example.storage.yearly")
      if plans[0].product.group != storage.group {
        let (begin, periods) = start(for: customer, product: storage, random: &random)
        var plan = SubscriptionPlan(
          product: storage, start: begin, introductoryTrial: random.chance(0.3))
        if random.chance(0.4) && periods >= 1 {
          plan.ending = .churn(afterPeriods: random.int(in: 1...periods), intent: 1)
        }
        plans.append(plan)
      }
      return plans
    }
  }

  private func churnPlan(customer: Customer, comeback: Bool, random: inout SeededRandom)
    -> SubscriptionPlan
  {
    let chosen = subscriptionProduct(random: &random)
    let (begin, periods) = start(for: customer, product: chosen, random: &random)
    var plan = SubscriptionPlan(
      product: chosen, start: begin, introductoryTrial: random.chance(0.4))
    let intent: Int64 = random.pick([(1, 60.0), (3, 15), (4, 10), (5, 15)])
    plan.ending = .churn(afterPeriods: random.int(in: 1...max(1, periods)), intent: intent)
    if comeback {
      let offer: Offer = random.pick([
        (
          Offer(type: 4, identifier: "winback.50off", discountType: "PAY_AS_YOU_GO", period: "P3M"),
          2.0
        ),
        (
          Offer(type: 2, identifier: "promo.return", discountType: "PAY_UP_FRONT", period: "P1M"), 1
        ),
        (Offer(type: 3, identifier: "SPRINGBACK", discountType: "FREE_TRIAL", period: "P1M"), 1),
      ])
      plan.comeback = (random.int(in: 5...120), offer)
    }
    return plan
  }

  private func billingPlan(customer: Customer, random: inout SeededRandom) -> SubscriptionPlan {
    var chosen = subscriptionProduct(random: &random)
    if chosen.periodDays == 365 { chosen = product("com.example.pro.monthly") }
    let (begin, periods) = start(for: customer, product: chosen, random: &random)
    var plan = SubscriptionPlan(product: chosen, start: begin, introductoryTrial: false)
    let outcome: SubscriptionPlan.BillingOutcome = random.pick([
      (.recovered(afterDays: random.int(in: 1...30)), 4.0), (.gaveUp, 2), (.stillFailing, 4),
    ])
    // A failure still under way at now must be recent: the last renewal before now.
    let failure: Int
    switch outcome {
    case .stillFailing: failure = max(1, periods)
    case .gaveUp: failure = max(1, periods - random.int(in: 3...6))
    case .recovered: failure = random.int(in: 1...max(1, periods))
    }
    plan.ending = .billingFailure(afterPeriods: failure, outcome: outcome)
    return plan
  }

  private func changePlan(customer: Customer, random: inout SeededRandom) -> SubscriptionPlan {
    let kind = random.int(in: 0...2)
    let (from, to, label): (String, String, String)
    switch kind {
    case 0:
      // One draw decides both ends: some upgrades leave a yearly plan for a monthly one of a
      // higher level, whose is_upgraded row then outlasts the new tier's.
      let roll = random.unit()
      (from, to, label) = (
        roll < 0.25 ? "com.example.pro.yearly" : "com.example.pro.monthly",
        roll < 0.7 ? "com.example.plus.monthly" : "com.example.plus.yearly", "upgrade"
      )
    case 1: (from, to, label) = ("com.example.plus.monthly", "com.example.pro.monthly", "downgrade")
    default: (from, to, label) = ("com.example.pro.monthly", "com.example.pro.yearly", "crossgrade")
    }
    let (begin, periods) = start(for: customer, product: product(from), random: &random)
    var plan = SubscriptionPlan(
      product: product(from), start: begin, introductoryTrial: random.chance(0.3))
    // Many changes are recent: the ones a stale snapshot misses.
    let period = random.chance(0.4) ? max(0, periods) : random.int(in: 0...max(0, periods))
    if label == "upgrade" {
      plan.change = .upgrade(period: period, dayIntoPeriod: random.int(in: 1...28), to: product(to))
    } else {
      plan.change = .atRenewal(period: period, to: product(to), label: label)
    }
    if random.chance(0.25) && periods >= 2 {
      plan.ending = .churn(afterPeriods: random.int(in: 2...max(2, periods + 1)), intent: 1)
    }
    return plan
  }

  private func refundPlan(customer: Customer, random: inout SeededRandom) -> SubscriptionPlan {
    let chosen = subscriptionProduct(random: &random)
    let (begin, periods) = start(for: customer, product: chosen, random: &random)
    var plan = SubscriptionPlan(product: chosen, start: begin, introductoryTrial: false)
    // Most refunds are of the latest period; some of an earlier one.
    let period = random.chance(0.7) ? periods : random.int(in: 0...periods)
    let kind: Revocation.Kind = random.chance(0.75) ? .refundFull : .refundProrated
    plan.ending = .refund(period: period, kind: kind, afterDays: random.int(in: 1...12))
    return plan
  }

  private func oneTimePurchases(
    for archetype: CustomerArchetype, customer: Customer, ids: inout IdentifierAllocator,
    random: inout SeededRandom
  ) -> [SimulatedTransaction] {
    var purchases: [SimulatedTransaction] = []
    func buy(_ id: String, refund: Bool = false) {
      let chosen = product(id)
      let span = now.milliseconds(since: customer.firstSeen)
      let moment = customer.firstSeen.adding(milliseconds: Int64(random.unit() * Double(span)))
      let next = ids.transactionId()
      var transaction = SimulatedTransaction(
        transactionId: next.transactionId, originalTransactionId: next.transactionId,
        webOrderLineItemId: nil,
        productId: id, kind: chosen.kind, group: nil, purchaseDate: moment,
        originalPurchaseDate: moment, expiresDate: nil,
        quantity: chosen.kind == .consumable ? Int64(random.int(in: 1...3)) : 1,
        ownership: .purchased, reason: "PURCHASE",
        priceMilli: chosen.priceMilli)
      if refund {
        let refundDate = moment.adding(
          milliseconds: days(random.chance(0.5) ? random.int(in: 1...20) : random.int(in: 21...120))
        )
        if refundDate < now {
          transaction.revocation = Revocation(
            date: refundDate, kind: .refundFull, reason: random.chance(0.5) ? 1 : 0)
        }
      }
      purchases.append(transaction)
    }
    switch archetype {
    case .consumablesOnly:
      for _ in 0..<random.int(in: 1...5) {
        buy(random.chance(0.7) ? "com.example.coins.100" : "com.example.coins.500")
      }
    case .oneTimeBuyer, .complex:
      if archetype == .oneTimeBuyer || random.chance(0.4) {
        buy("com.example.filters.lifetime", refund: random.chance(0.2))
        if random.chance(0.4) { buy("com.example.brushes.pack", refund: random.chance(0.3)) }
        if random.chance(0.3) { buy("com.example.season.pass") }
        for _ in 0..<random.int(in: 0...3) { buy("com.example.coins.100") }
      }
    default:
      if random.chance(0.1) { buy("com.example.coins.100") }
    }
    return purchases
  }

  // MARK: - Family sharing

  /// A family member who receives the organiser's shared subscription: mirrored transactions
  /// owned as `FAMILY_SHARED`, with the member's own ids; some members leave the family, which
  /// revokes their access (`FAMILY_REVOKE`).
  private func addFamilyMember(of organiser: Int, to world: inout World, random: inout SeededRandom)
    -> Int
  {
    let index = world.customers.count
    var ids = IdentifierAllocator(
      customer: world.identifierBase + index, environment: .production)
    let source = world.customers[organiser]
    let shared = source.transactions.filter { $0.kind == .autoRenewable }
    let joined =
      shared.first.map { $0.purchaseDate.adding(milliseconds: days(random.int(in: 0...60))) }
      ?? source.firstSeen
    var member = Customer(
      index: index, appTransactionId: ids.appTransactionId, environment: .production,
      firstSeen: min(joined, now.adding(milliseconds: -days(1))),
      story: [
        "family_member",
        "shares the subscription of customer \(world.identifierBase + organiser) from \(joined)",
      ])
    let leaves = random.chance(0.35)
    var leftAt: Timestamp?
    if leaves, let last = shared.last, joined < last.purchaseDate {
      leftAt = joined.adding(
        milliseconds: Int64(random.unit() * Double(max(1, now.milliseconds(since: joined)))))
    }
    var original: String?
    var originalPurchase: Timestamp?
    for transaction in shared where (transaction.expiresDate ?? transaction.purchaseDate) > joined {
      if let leftAt, transaction.purchaseDate >= leftAt { break }
      let next = ids.transactionId()
      let purchase = max(transaction.purchaseDate, joined)
      original = original ?? next.transactionId
      originalPurchase = originalPurchase ?? purchase
      var mirror = transaction
      mirror.transactionId = next.transactionId
      mirror.originalTransactionId = original ?? next.transactionId
      mirror.webOrderLineItemId = next.webOrderLineItemId
      mirror.purchaseDate = purchase
      mirror.originalPurchaseDate = originalPurchase ?? purchase
      mirror.ownership = .familyShared
      mirror.priceMilli = 0
      if let revocation = transaction.revocation {
        mirror.revocation = Revocation(date: revocation.date, kind: .familyRevoke, reason: 0)
      }
      if let leftAt, let expires = transaction.expiresDate, leftAt < expires,
        mirror.revocation == nil
      {
        mirror.revocation = Revocation(date: leftAt, kind: .familyRevoke, reason: 0)
      }
      member.transactions.append(mirror)
    }
    if let original, let timeline = source.renewals.first(where: { $0.group == "21000001" }) {
      var events = timeline.events.filter {
        $0.at >= (originalPurchase ?? joined)
          || $0 == timeline.events.first.map { ($0.at, $0.state) } ?? ($0.at, $0.state)
      }
      events = events.map {
        ($0.at < (originalPurchase ?? joined) ? (originalPurchase ?? joined) : $0.at, $0.state)
      }
      if let leftAt {
        events = events.filter { $0.at < leftAt }
        events.append(
          (
            leftAt,
            RenewalState(
              autoRenewStatus: false,
              autoRenewProductId: shared.last?.productId ?? "com.example.plus.yearly")
          ))
        member.story.append("left the family on \(leftAt)")
      }
      member.renewals.append(
        RenewalTimeline(originalTransactionId: original, group: "21000001", events: events))
    }
    if random.chance(0.5) {
      member.restoredPurchasesAt = member.firstSeen.adding(
        milliseconds: Int64(random.unit() * Double(now.milliseconds(since: member.firstSeen))))
    }
    // Some members buy something of their own, so their receipts are not empty.
    if random.chance(0.4) {
      let own = plans(for: .loyalSubscriber, customer: member, random: &random).filter {
        $0.product.group != "21000001"
      }
      let simulator = SubscriptionSimulator(now: now, gracePeriodDays: world.gracePeriodDays)
      for plan in own {
        let outcome = simulator.simulate(plan, ids: &ids, random: &random)
        member.transactions += outcome.transactions
        member.renewals.append(outcome.timeline)
        member.story += outcome.story
      }
      member.transactions += oneTimePurchases(
        for: .oneTimeBuyer, customer: member, ids: &ids, random: &random)
      member.transactions.sort {
        ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId)
      }
    }
    world.customers.append(member)
    return index
  }
}
