import Chronology
import Dispatch
import LegacyReceipts
import Synchronization

/// Decides, from the world's truth, the category a correct comparison must find for each
/// account — the rules of `Documentation/Discrepancies.md` applied to what the world knows:
/// the old side from the legacy responses the team stored (read back exactly as ingest reads
/// them, through the reference old logic), the new side from the customers' own histories.
public struct ExpectedCategoryOracle: Sendable {
  /// One account's expectation.
  public struct Expectation: Hashable, Sendable {
    /// The team's account id.
    public var accountId: String
    /// The primary category.
    public var category: ExpectedCategory
    /// The category of the team's table against the App Store, when a table is compared.
    public var tableCategory: ExpectedCategory
    /// The legacy bugs that changed what the account's table grants (a key entitled or not, or
    /// the product it is entitled to).
    public var effectiveFlaws: [LegacyLogicFlaw]
    /// The account's rows in the team's table: its own legacy bugs applied to its responses.
    public var table: [OldEntitlement]
  }

  /// How far apart two expiries may be and still agree.
  public static let expiryTolerance: Int64 = Timestamp.millisecondsPerDay

  private let world: World
  /// The comparison instant.
  private let instant: Timestamp
  /// The instant the App Store data was fetched at, when it is older than the comparison.
  private let dataAsOf: Timestamp?
  /// The instant the App Store data was fetched at, when it is later than the comparison: the
  /// new side is then what that data says about the comparison instant.
  private let dataFetchedAt: Timestamp?
  /// How long after its fetch never-refreshed data may be read (the comparison's
  /// `--max-data-age`).
  private let maxDataAge: Int64
  private let writer: LegacyResponseWriter
  private let logic: OldEntitlementLogic
  /// The customers each account reaches through its ids.
  private let reachable: [[Int]]

  /// Prepares the oracle for a world.
  ///
  /// - Parameters:
  ///   - world: the world.
  ///   - instant: the comparison instant; the world's clock by default. Any instant up to the
  ///     end of the world's timeline: the old side is the legacy logic at that instant, the new
  ///     side the App Store's truth at it, and the team's table what its flawed logic holds then.
  ///   - dataAsOf: when the App Store data a comparison reads was fetched, if earlier than
  ///     `instant` and never refreshed: the new side is then the truth of that instant, and an
  ///     account whose customer had a state that has run out by `instant` (an active
  ///     subscription past its expiry, a grace period past its end) is `stale_app_store_data`.
  ///   - dataFetchedAt: when the App Store data a comparison reads was fetched, if later than
  ///     `instant`: the new side is then what that data says about `instant` (each subscription
  ///     from its latest transaction by then, with billing trouble proven by a later status; see
  ///     ``Customer/reconstructedEntitlements(at:fetchedAt:products:)``).
  ///   - maxDataAge: with `dataAsOf`, data older than this at `instant` is
  ///     `stale_app_store_data` whatever it shows (three days, the comparison's default).
  ///   - followsTokens: whether the comparison follows, through the team's tokens, customers
  ///     outside its legacy data: an account then also reaches every customer of its own whose
  ///     purchase by `instant` carries an `appAccountToken` (a first purchase after the cut-over).
  public init(
    world: World, at instant: Timestamp? = nil, dataAsOf: Timestamp? = nil,
    dataFetchedAt: Timestamp? = nil, maxDataAge: Int64 = 3 * Timestamp.millisecondsPerDay,
    followsTokens: Bool = false
  ) {
    self.world = world
    self.instant = instant ?? world.now
    self.dataAsOf = dataAsOf.flatMap { $0 < (instant ?? world.now) ? $0 : nil }
    self.dataFetchedAt = dataFetchedAt.flatMap { $0 > (instant ?? world.now) ? $0 : nil }
    self.maxDataAge = maxDataAge
    self.writer = LegacyResponseWriter(world: world)
    self.logic = OldEntitlementLogic(catalog: world.catalog)
    var reachable: [[Int]] = []
    let writer = self.writer
    // A customer's token is its first account's: that account is where a token leads.
    var firstAccount: [Int: String] = [:]
    for account in world.accounts {
      for index in account.customers where firstAccount[index] == nil {
        firstAccount[index] = account.id
      }
    }
    for account in world.accounts {
      var customers: [Int] = []
      for snapshot in account.snapshots where snapshot.style != .errorStatus {
        let customer = world.customers[snapshot.customer]
        guard !customer.isForgotten, !customers.contains(customer.index) else { continue }
        if Self.namesCustomer(snapshot, writer: writer) { customers.append(customer.index) }
      }
      if followsTokens {
        for index in account.customers
        where !customers.contains(index) && firstAccount[index] == account.id {
          let customer = world.customers[index]
          if !customer.isForgotten,
            customer.transactions.contains(where: {
              $0.appAccountToken != nil && $0.purchaseDate <= (instant ?? world.now)
            })
          {
            customers.append(index)
          }
        }
      }
      reachable.append(customers)
    }
    self.reachable = reachable
  }

  /// The expectation for every account, in account order.
  public func expectations() -> [Expectation] {
    evaluate().map(\.expectation)
  }

  /// The expectation of every account together with the response text of each of its
  /// snapshots, computed once for both `expected.csv` and `receipts.ndjson`. Accounts are
  /// evaluated in parallel chunks; the result is in account order.
  ///
  /// - Returns: per account, its expectation and its snapshots' responses, oldest first.
  public func evaluate() -> [(expectation: Expectation, responses: [String])] {
    var linked: [Int: Int] = [:]
    for customers in reachable { for customer in customers { linked[customer, default: 0] += 1 } }
    let accountsByCustomer = linked
    let count = world.accounts.count
    let chunk = 256
    let chunks = (count + chunk - 1) / chunk
    let results = Mutex<[[(expectation: Expectation, responses: [String])]]>(
      Array(repeating: [], count: chunks))
    DispatchQueue.concurrentPerform(iterations: chunks) { number in
      let range = number * chunk..<min(count, (number + 1) * chunk)
      let evaluated = range.map { evaluate(account: $0, accountsByCustomer: accountsByCustomer) }
      results.withLock { $0[number] = evaluated }
    }
    return results.withLock { $0.flatMap { $0 } }
  }

  private func evaluate(account index: Int, accountsByCustomer: [Int: Int]) -> (
    expectation: Expectation, responses: [String]
  ) {
    let responses = world.accounts[index].snapshots.map { writer.response(for: $0) }
    return (
      expectation(for: index, responses: responses, accountsByCustomer: accountsByCustomer),
      responses
    )
  }

  private func expectation(for index: Int, responses: [String], accountsByCustomer: [Int: Int])
    -> Expectation
  {
    let account = world.accounts[index]
    let customers = reachable[index]
    // What ingest will see: usable responses (status 0 or 21006), error responses (an iOS 6
    // receipt without a subscription cannot exist, so the writer stores it as an error), and
    // the ids any non-error record yields. The old side reads only the responses the team held
    // at the comparison instant: those captured later are set aside.
    let held = account.snapshots.filter { $0.capturedAt <= instant }
    let usable = held.filter { snapshot in
      switch snapshot.style {
      case .modern: return true
      case .iOS6: return holdsSubscription(snapshot)
      case .rawReceipt, .errorStatus, .appTransactionIdOnly, .orderIdOnly: return false
      }
    }
    let hasErrors = held.contains {
      $0.style == .errorStatus || ($0.style == .iOS6 && !holdsSubscription($0))
    }
    // Ids come from the records, or from a customer followed through its token.
    let hasIds =
      account.snapshots.contains { Self.namesCustomer($0, writer: writer) } || !customers.isEmpty
    let newSide = newEntitlements(customers)
    let texts = Dictionary(
      zip(account.snapshots, responses), uniquingKeysWith: { first, _ in first })
    let latest = latestResponses(usable, texts: texts)
    let oldSide = oldEntitlements(latest)
    let tableSide = tableEntitlements(account, latest: latest, reference: oldSide)
    var category: ExpectedCategory
    if usable.isEmpty && hasErrors {
      category = .legacyErrorStatus
    } else if !hasIds {
      category = .noTransactionId
    } else if customers.isEmpty {
      category = .unknownToAppStore
    } else if hasRunOut(customers) {
      category = .staleAppStoreData
    } else if customers.allSatisfy({ world.customers[$0].environment == .sandbox }) {
      category = .sandboxOnly
    } else if customers.contains(where: { (accountsByCustomer[$0] ?? 0) > 1 }) {
      category = .sharedAppleAccount
    } else if usable.isEmpty {
      category = .idsOnly
    } else {
      category = Self.classify(old: oldSide, new: newSide)
    }
    let tableCategory =
      customers.isEmpty || category == .staleAppStoreData
      ? category : Self.classify(old: tableSide.entitlements, new: newSide)
    return Expectation(
      accountId: account.id, category: category, tableCategory: tableCategory,
      effectiveFlaws: tableSide.flaws,
      table: tableSide.entitlements.values.sorted { $0.key < $1.key })
  }

  private func visible(_ snapshot: LegacySnapshot) -> [SimulatedTransaction] {
    writer.visibleTransactions(of: snapshot)
  }

  /// Whether an iOS 6 record holds a subscription: without one the writer stores it as an
  /// error response, as no iOS 6 receipt without a subscription exists.
  private func holdsSubscription(_ snapshot: LegacySnapshot) -> Bool {
    visible(snapshot).contains { $0.kind == .autoRenewable }
  }

  /// Whether a record gives the App Store an id of its customer: a transaction in its receipt,
  /// the app transaction id stored beside or instead of it, or an order id (the world's
  /// order-id-only records always name an order of the customer's, in production, where
  /// Look Up Order ID answers).
  static func namesCustomer(_ snapshot: LegacySnapshot, writer: LegacyResponseWriter) -> Bool {
    switch snapshot.style {
    case .errorStatus: return false
    case .appTransactionIdOnly, .orderIdOnly: return true
    case .modern, .iOS6, .rawReceipt:
      return snapshot.storesAppTransactionId || !writer.visibleTransactions(of: snapshot).isEmpty
    }
  }

  // MARK: - The sides

  /// The reference old logic at now on the latest usable response of each Apple Account,
  /// merged key by key.
  private func oldEntitlements(_ latest: [VerifyReceiptResponse], flaws: Set<LegacyLogicFlaw> = [])
    -> [EntitlementKey: OldEntitlement]
  {
    let evaluator = OldEntitlementLogic(flaws: flaws, catalog: world.catalog)
    let storedId = OldEntitlementLogic.storedOriginalTransactionId(in: latest)
    var merged: [EntitlementKey: OldEntitlement] = [:]
    for response in latest {
      for entitlement in evaluator.evaluate(
        response, at: instant, storedOriginalTransactionId: storedId)
      {
        merged[entitlement.key] = Self.better(merged[entitlement.key], entitlement)
      }
    }
    return merged
  }

  /// The latest usable response of each Apple Account, decoded once.
  private func latestResponses(_ usable: [LegacySnapshot], texts: [LegacySnapshot: String])
    -> [VerifyReceiptResponse]
  {
    var latestByCustomer: [Int: LegacySnapshot] = [:]
    for snapshot in usable
    where (latestByCustomer[snapshot.customer]?.capturedAt ?? .distantPast) <= snapshot.capturedAt {
      latestByCustomer[snapshot.customer] = snapshot
    }
    return latestByCustomer.keys.sorted().compactMap { latestByCustomer[$0] }.map {
      decode($0, text: texts[$0] ?? writer.response(for: $0))
    }
  }

  /// What the team's table holds: the account's own bugs applied to the same responses, and
  /// which of those bugs alone change what it grants.
  private func tableEntitlements(
    _ account: TeamAccount, latest: [VerifyReceiptResponse],
    reference: [EntitlementKey: OldEntitlement]
  )
    -> (entitlements: [EntitlementKey: OldEntitlement], flaws: [LegacyLogicFlaw])
  {
    guard !account.tableFlaws.isEmpty else { return (reference, []) }
    let flawed = oldEntitlements(latest, flaws: Set(account.tableFlaws))
    let effective = account.tableFlaws.filter {
      Self.grantsDiffer(oldEntitlements(latest, flaws: [$0]), reference)
    }
    return (flawed, effective)
  }

  /// Whether two sides grant differently: a key entitled on one side only, or entitled to a
  /// different product. A bug that only changes a reason or a date the table does not act on
  /// has no effect worth naming.
  private static func grantsDiffer(
    _ lhs: [EntitlementKey: OldEntitlement], _ rhs: [EntitlementKey: OldEntitlement]
  ) -> Bool {
    Set(lhs.keys).union(rhs.keys).contains { key in
      (lhs[key]?.status.isEntitled ?? false) != (rhs[key]?.status.isEntitled ?? false)
        || lhs[key]?.productId != rhs[key]?.productId
    }
  }

  private func newEntitlements(_ customers: [Int]) -> [EntitlementKey: TruthEntitlement] {
    var merged: [EntitlementKey: TruthEntitlement] = [:]
    for customer in customers {
      let entitlements =
        dataFetchedAt.map {
          world.customers[customer].reconstructedEntitlements(
            at: instant, fetchedAt: $0, products: world.products)
        }
        ?? world.customers[customer].truthEntitlements(
          at: dataAsOf ?? instant, products: world.products)
      for (key, entitlement) in entitlements {
        merged[key] = Customer.better(merged[key], entitlement)
      }
    }
    return merged
  }

  /// Whether data fetched at ``dataAsOf`` shows a customer a state that has run out by the
  /// comparison instant: a subscription active then whose expiry has passed, or in its grace
  /// period then whose grace period has ended.
  private func hasRunOut(_ customers: [Int]) -> Bool {
    guard let dataAsOf else { return false }
    // Past the maximum data age nothing of never-refreshed data is read.
    if instant.milliseconds(since: dataAsOf) > maxDataAge { return true }
    for index in customers {
      let customer = world.customers[index]
      let originals = Set(
        customer.transactions.filter { $0.kind == .autoRenewable && $0.purchaseDate <= dataAsOf }
          .map(\.originalTransactionId))
      for original in originals {
        guard
          let (status, transaction, renewal) = customer.subscriptionStatus(
            originalTransactionId: original, at: dataAsOf)
        else { continue }
        switch status {
        case .active:
          if let expires = transaction.expiresDate, expires <= instant { return true }
        case .gracePeriod:
          if let grace = renewal?.gracePeriodExpiresDate, grace <= instant { return true }
        default:
          break
        }
      }
    }
    return false
  }

  private func decode(_ snapshot: LegacySnapshot, text: String) -> VerifyReceiptResponse {
    do {
      var response = try Array(text.utf8).withUnsafeBytes { try VerifyReceiptDecoder.decode($0) }
        .response
      // iOS 6 responses carry no request date; the record's captured_at stands in, as in ingest.
      if response.receipt?.requestDate == nil {
        response.receipt?.requestDate = snapshot.capturedAt
      }
      return response
    } catch {
      // The writer's own output always decodes; a failure here is a bug in the simulator.
      preconditionFailure("the simulator wrote an unreadable response: \(error)")
    }
  }

  // MARK: - The rules

  /// The better of two old verdicts for one key: entitled first, then the later expiry, then
  /// the customer's own purchase, then the smaller original transaction id.
  static func better(_ current: OldEntitlement?, _ candidate: OldEntitlement) -> OldEntitlement {
    guard let current else { return candidate }
    if current.isEntitled != candidate.isEntitled {
      return candidate.isEntitled ? candidate : current
    }
    let currentExpiry = current.expiresDate ?? .distantPast
    let candidateExpiry = candidate.expiresDate ?? .distantPast
    if currentExpiry != candidateExpiry {
      return candidateExpiry > currentExpiry ? candidate : current
    }
    if current.ownership != candidate.ownership {
      return candidate.ownership == .purchased ? candidate : current
    }
    return (candidate.originalTransactionId ?? "") < (current.originalTransactionId ?? "")
      ? candidate : current
  }

  /// The primary category of the key-level comparison: the first, in precedence order, of the
  /// categories of every key on either side.
  public static func classify(
    old: [EntitlementKey: OldEntitlement], new: [EntitlementKey: TruthEntitlement]
  ) -> ExpectedCategory {
    let keys = Set(old.keys).union(new.keys)
    return keys.map { classify(old: old[$0], new: new[$0]) }.min() ?? .match
  }

  /// One key's category.
  static func classify(old: OldEntitlement?, new: TruthEntitlement?) -> ExpectedCategory {
    if old?.isDurationUnknown == true { return .durationUnknown }
    let oldEntitled = old?.isEntitled ?? false
    let newStatus = new?.status
    if oldEntitled {
      if let new, new.status == .revoked {
        if case .product = new.key { return .oneTimeRevoked }
        switch new.revocation?.kind {
        case .familyRevoke?: return .revokedFamily
        case .refundProrated?: return .proratedRefund
        default: return .refundMissed
        }
      }
      if newStatus == .billingRetry { return .billingRetryAsActive }
      guard let new, new.status.isEntitled else { return .staleExpired }
      if let oldProduct = old?.productId, oldProduct != new.productId { return .upgradeMisread }
      if let oldExpiry = old?.expiresDate, let newExpiry = new.expiresDate,
        abs(oldExpiry.milliseconds(since: newExpiry)) > expiryTolerance
      {
        return .expiryDrift
      }
      return .match
    }
    guard let new, new.status.isEntitled else { return .match }
    if old == nil {
      return new.ownership == .familyShared ? .familySharedOnlyInAPI : .missingInReceipt
    }
    return new.status == .gracePeriod ? .graceMissed : .staleRenewed
  }
}

extension World {
  /// The app's products as the team's catalogue (`products.csv`).
  public var catalog: ProductCatalog {
    ProductCatalog(
      products: Dictionary(
        uniqueKeysWithValues: products.map {
          (
            $0.id,
            ProductCatalog.Product(
              kind: $0.kind, subscriptionGroupIdentifier: $0.group,
              duration: $0.kind == .nonRenewing
                ? $0.periodDays.map { CalendarDuration(days: $0) } : nil)
          )
        }))
  }
}
