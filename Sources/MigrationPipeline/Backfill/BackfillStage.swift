import AppStoreServerAPI
import Chronology
import MigrationStore

/// The backfill stage: finds every account's App Store customers from its seed ids and fetches
/// each customer's full history (v2, ascending, unfiltered, all pages) and all subscription
/// statuses, verifying every signed value (the client does) and storing it all.
///
/// It never wastes a request: ids are planned in groups that share a legacy record, one walk
/// covers a group, an id already present in a stored history is not queried again, and
/// accounts sharing a customer share its calls. It is resumable: each page is stored with its
/// revision in one transaction, so after a crash a rerun goes on from the last stored page and
/// repeats at most the requests that were in flight.
public actor BackfillStage {
  /// The stage's name in progress reports.
  public static let name = "backfill"

  let store: MigrationStore
  let client: AppStoreServerAPIClient
  let options: BackfillOptions
  let now: @Sendable () -> Timestamp
  /// The App Store's clock (the simulator's, or the wall clock for Apple): what fetched data is
  /// true as of.
  private let appStoreNow: @Sendable () -> Timestamp
  let observer: (any ProgressObserver)?
  var summary = BackfillSummary()
  /// Customers another task of this run is walking right now.
  private var walking: Set<Int64> = []
  /// Customers whose walk or status call failed in this run, not to be tried again in it.
  /// Customers that failed in this run, with the reason: every id that leads to one later in
  /// the run is failed with the same reason rather than "covered" by incomplete data.
  private var failedThisRun: [Int64: String] = [:]
  /// The request totals already shown to the observer.
  private var shownTotals = RequestTotalsShown()

  /// Requests, retries and 429s the observer has been told about.
  private struct RequestTotalsShown {
    var requests = 0
    var retries = 0
    var rateLimited = 0
  }

  /// Creates the stage; it takes the store connection over.
  ///
  /// - Parameters:
  ///   - store: the store (not used by anyone else while the stage runs).
  ///   - client: the App Store Server API client.
  ///   - options: concurrency and extras.
  ///   - now: the clock, for bookkeeping.
  ///   - appStoreNow: the App Store's clock, recorded as the instant fetched statuses are true
  ///     as of; `now` when `nil` (Apple's clock is the wall clock).
  ///   - observer: where progress goes.
  public init(
    store: sending MigrationStore, client: AppStoreServerAPIClient,
    options: BackfillOptions = BackfillOptions(),
    now: @escaping @Sendable () -> Timestamp,
    appStoreNow: (@Sendable () -> Timestamp)? = nil, observer: (any ProgressObserver)? = nil
  ) {
    self.store = store
    self.client = client
    self.options = options
    self.now = now
    self.appStoreNow = appStoreNow ?? now
    self.observer = observer
  }

  /// Runs the stage to completion.
  ///
  /// - Returns: what it did.
  /// - Throws: `SQLiteError` when the store fails, `CancellationError` when cancelled. A
  ///   401 that re-signing does not cure stops the run with the client's error. Other App Store
  ///   problems are recorded per id, never thrown.
  public func run() async throws -> BackfillSummary {
    let started = now()
    // Order ids first: a valid order's transactions become seed ids of the accounts naming it,
    // and are then worked through like every other id.
    try await resolveOrders()
    let outcomes = try store.seedOutcomes()
    let links = try store.seedLinks().map {
      (
        accountId: $0.accountId, id: $0.originalTransactionId, recordId: $0.recordId,
        environment: $0.environment
      )
    }
    let groups = Self.scheduled(
      SeedGroup.groups(from: links).filter { group in
        group.ids.contains { needsRequest(outcomes[$0]) }
      })
    let unfinished = try store.customers().filter {
      !$0.isHistoryComplete || !$0.areStatusesComplete
        || (options.fetchAppTransactions && !$0.isAppTransactionComplete)
    }
    summary.groups = groups.count
    observer?.stageStarted(Self.name, unit: "groups", total: Int64(groups.count + unfinished.count))

    // First finish what an interrupted run began, then the groups nobody has touched.
    try await forEach(unfinished, limit: options.concurrency) { stage, customer in
      try await stage.finish(customer, resumed: true)
    }
    try await forEach(groups, limit: options.concurrency) { stage, group in
      try await stage.process(group)
    }
    try settle(links.map { (accountId: $0.accountId, id: $0.id) })
    summary.failedIds = try store.seedOutcomes().values.count { $0.outcome == "failed" }
    summary.durationMilliseconds = now().milliseconds(since: started)
    summary.counters = client.counters.snapshot()
    observer?.stageFinished(Self.name)
    return summary
  }

  /// Whether an id needs the App Store: it has no outcome yet, it failed, or it was unknown
  /// only in environments narrower than this run asks (a run pinned to production, then one
  /// that also asks sandbox).
  private func needsRequest(_ outcome: SeedOutcomeRow?) -> Bool {
    guard let outcome else { return true }
    switch outcome.outcome {
    case "failed": return true
    case "unknown":
      let asked = Set((outcome.environment ?? "").split(separator: "+").map(String.init))
      return !Set(environmentsToAsk).isSubset(of: asked)
    default: return false
    }
  }

  /// The environments a discovery asks: the configured one, or both.
  private var environmentsToAsk: [String] {
    options.environment.map { [$0.rawValue] }
      ?? [AppStoreEnvironment.production.rawValue, AppStoreEnvironment.sandbox.rawValue]
  }

  /// Groups in a fixed order that spreads neighbouring ids apart. Ids of one customer are often
  /// numerically close, and groups worked on at the same moment cannot see each other's
  /// customers yet: far apart, the second finds the first's walk stored and costs nothing.
  static func scheduled(_ groups: [SeedGroup]) -> [SeedGroup] {
    groups.map { (key: fnv1a($0.ids.first ?? ""), group: $0) }
      .sorted { ($0.key, $0.group.ids.first ?? "") < ($1.key, $1.group.ids.first ?? "") }
      .map(\.group)
  }

  /// 64-bit FNV-1a: a stable hash (Swift's `Hasher` is seeded per process).
  static func fnv1a(_ text: String) -> UInt64 {
    text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
  }

  /// The last step: an id that failed but whose customer another id's walk completed is
  /// covered after all, and every account is linked to the customers of its resolved ids —
  /// including accounts ingested after their ids were resolved. No request is needed.
  private func settle(_ links: [(accountId: String, id: String)]) throws {
    let accountsById = Dictionary(grouping: links, by: \.id).mapValues { $0.map(\.accountId) }
    let outcomes = try store.seedOutcomes()
    for (id, outcome) in outcomes where outcome.outcome == "failed" {
      guard let owner = try store.customerOwning(id), let customer = try store.customer(id: owner),
        customer.isHistoryComplete, customer.areStatusesComplete
      else { continue }
      try record(
        id, "covered", environment: customer.environment, customer: owner,
        accounts: accountsById[id] ?? [])
    }
    try store.writeTransaction {
      for (id, outcome) in try store.seedOutcomes() {
        guard let customer = outcome.customerId else { continue }
        for account in accountsById[id] ?? [] {
          try store.linkAccount(account, toCustomer: customer)
        }
      }
    }
  }

  /// Runs `body` over `items` with at most `limit` at once, showing progress after each.
  private func forEach<Item: Sendable>(
    _ items: [Item], limit: Int,
    _ body: @escaping @Sendable (BackfillStage, Item) async throws -> Void
  ) async throws {
    try await ConcurrentWork.forEach(
      items, limit: limit, afterEach: { await self.itemFinished() },
      body: { item in try await body(self, item) })
  }

  private func itemFinished() {
    observer?.advanced(Self.name, by: 1)
    showRequestCounters()
  }

  /// Tells the observer how many requests, retries and 429s happened since it was last told.
  func showRequestCounters() {
    guard let observer else { return }
    let counts = client.counters.snapshot().endpoints.values
    let now = RequestTotalsShown(
      requests: counts.reduce(0) { $0 + $1.requests },
      retries: counts.reduce(0) { $0 + $1.retries },
      rateLimited: counts.reduce(0) { $0 + $1.rateLimited })
    for (name, delta) in [
      ("requests", now.requests - shownTotals.requests),
      ("429s", now.rateLimited - shownTotals.rateLimited),
      ("retries", now.retries - shownTotals.retries),
    ] where delta > 0 {
      observer.counted(Self.name, name, by: Int64(delta))
    }
    shownTotals = now
  }

  // MARK: - One group

  private func process(_ group: SeedGroup) async throws {
    var customersOfIds: [String: Int64] = [:]
    for id in group.ids {
      try StopRequest.checkpoint()
      if let known = try store.seedOutcomes(for: id), !needsRequest(known) {
        if let customer = known.customerId { customersOfIds[id] = customer }
        continue
      }
      let accounts = group.accountsById[id] ?? []
      if let owner = try store.customerOwning(id) {
        try record(
          id, covering: owner, environment: try store.customer(id: owner)?.environment,
          accounts: accounts)
        customersOfIds[id] = owner
        continue
      }
      if let customer = try await discover(
        id, accounts: accounts, hint: group.environmentHint.flatMap(AppStoreEnvironment.named))
      {
        customersOfIds[id] = customer
      }
    }
    for customer in Set(customersOfIds.values).sorted() {
      guard let row = try store.customer(id: customer), !walking.contains(customer) else {
        continue
      }
      try await finish(row, resumed: false)
    }
    try store.writeTransaction {
      for (id, customer) in customersOfIds {
        for account in group.accountsById[id] ?? [] {
          try store.linkAccount(account, toCustomer: customer)
        }
      }
    }
  }

  /// Asks the App Store for an id's history (production first, or the hinted environment, then
  /// the other), learns whose it is, and walks it. The customer, its first page, the id's
  /// outcome and the accounts' links are stored in one transaction, so an interruption leaves
  /// either all of them or none (and the rerun repeats only that request).
  private func discover(_ id: String, accounts: [String], hint: AppStoreEnvironment?)
    async throws -> Int64?
  {
    let resolution: EnvironmentResolution<HistoryResponse>
    do {
      resolution = try await firstPage(of: id, hint: hint)
    } catch {
      try failure(id, error)
      return nil
    }
    summary.historyPages += 1
    let page = resolution.value
    let environment = resolution.environment.rawValue
    // A transaction id always has a transaction in its history: an empty first page means the
    // id was an app transaction id, of a customer who never bought anything (or whose every
    // purchase is gone), and that id is the customer's key.
    let key =
      page.transactions.isEmpty ? id : Self.customerKey(of: page.transactions.map(\.payload))
    let claim = try store.writeTransaction {
      let claim = try store.claimCustomer(
        key: key,
        appTransactionId: page.transactions.first?.payload.appTransactionId
          ?? (page.transactions.isEmpty ? id : nil),
        environment: environment,
        walkTransactionId: id, now: now().millisecondsSince1970,
        compactFormat: CompactTransaction.formatVersion)
      if claim.isNew {
        try store.storeHistoryPage(
          page.transactions.map(Self.row), customerId: claim.row.id, revision: page.revision,
          isLast: !page.hasMore,
          now: now().millisecondsSince1970)
      }
      // Not new: another group already walks (or walked) this customer; the page taught
      // nothing new.
      if claim.isNew {
        try record(
          id, "found", environment: environment, customer: claim.row.id, accounts: accounts)
      } else {
        try record(id, covering: claim.row.id, environment: environment, accounts: accounts)
      }
      return claim
    }
    guard claim.isNew else { return claim.row.id }
    walking.insert(claim.row.id)
    defer { walking.remove(claim.row.id) }
    if let updated = try store.customer(id: claim.row.id) { try await walk(updated) }
    return claim.row.id
  }

  /// The first history page of an id: from the configured environment only, or from the
  /// hinted one (production without a hint) and then the other.
  private func firstPage(of id: String, hint: AppStoreEnvironment?) async throws(AppStoreAPIError)
    -> EnvironmentResolution<HistoryResponse>
  {
    let client = self.client
    guard let fixed = options.environment else {
      return try await client.resolvingEnvironment(for: id, hint: hint) {
        environment async throws(AppStoreAPIError) in
        try await client.transactionHistory(
          id, query: Self.historyQuery, environment: environment)
      }
    }
    do {
      return EnvironmentResolution(
        value: try await client.transactionHistory(
          id, query: Self.historyQuery, environment: fixed),
        environment: fixed)
    } catch  where error.errorCode == .transactionIdNotFound {
      // One environment only, as configured: an id it does not know is unknown.
      throw AppStoreAPIError(
        .notFoundInAnyEnvironment(tried: [fixed]), endpoint: error.endpoint, environment: fixed,
        requestedId: id)
    }
  }

  /// Fetches the remaining pages of a customer's history, storing each with its revision.
  ///
  /// A revision Apple refuses (`4000005`) starts the walk again from the beginning, once per
  /// customer and run: refused again in that new walk, the customer fails with the reason, and
  /// the next run tries again. (A walk restarted each time it is refused never ends when Apple
  /// keeps refusing.)
  private func walk(_ customer: CustomerRow) async throws {
    var current = customer
    var restarted = false
    while !current.isHistoryComplete {
      try StopRequest.checkpoint()
      let environment = AppStoreEnvironment.named(current.environment) ?? .production
      let page: HistoryResponse
      do {
        page = try await client.transactionHistory(
          current.walkTransactionId, query: Self.historyQuery, revision: current.historyRevision,
          environment: environment)
      } catch {
        if error.errorCode == .invalidRevision, current.historyRevision != nil {
          guard !restarted else {
            try fail(
              customer: current, error,
              reason: "\(error.description); refused again after the walk started over from the "
                + "beginning, so this run leaves the customer for the next one")
            return
          }
          // The stored revision is no longer accepted: walk again from the start.
          restarted = true
          try store.resetHistory(customerId: current.id, now: now().millisecondsSince1970)
          current.historyRevision = nil
          continue
        }
        try fail(customer: current, error)
        return
      }
      summary.historyPages += 1
      try store.storeHistoryPage(
        page.transactions.map(Self.row), customerId: current.id, revision: page.revision,
        isLast: !page.hasMore,
        now: now().millisecondsSince1970)
      guard let updated = try store.customer(id: current.id) else { return }
      current = updated
    }
  }

  /// Completes a customer: the rest of its history, its statuses, and (when asked) its app
  /// transaction.
  private func finish(_ customer: CustomerRow, resumed: Bool) async throws {
    let needsWork =
      !customer.isHistoryComplete || !customer.areStatusesComplete
      || (options.fetchAppTransactions && !customer.isAppTransactionComplete)
    // A customer that failed in this run already spent its retries: the next run tries again.
    guard needsWork, failedThisRun[customer.id] == nil else { return }
    if resumed { summary.resumedCustomers += 1 }
    walking.insert(customer.id)
    defer { walking.remove(customer.id) }
    if !customer.isHistoryComplete { try await walk(customer) }
    guard let current = try store.customer(id: customer.id), current.isHistoryComplete else {
      return
    }
    let environment = AppStoreEnvironment.named(current.environment) ?? .production
    if !current.areStatusesComplete {
      let response: StatusResponse
      do {
        response = try await client.allSubscriptionStatuses(
          current.walkTransactionId, environment: environment)
      } catch {
        try fail(customer: current, error)
        return
      }
      summary.statusCalls += 1
      try store.storeStatuses(
        Self.rows(response), customerId: current.id,
        fetchedAt: appStoreNow().millisecondsSince1970, now: now().millisecondsSince1970)
    }
    if options.fetchAppTransactions && !current.isAppTransactionComplete {
      let appTransaction: Verified<AppTransaction>?
      do {
        appTransaction = try await client.appTransactionInfo(
          current.walkTransactionId, environment: environment)
      } catch {
        try fail(customer: current, error)
        return
      }
      try store.storeAppTransaction(
        jws: appTransaction?.jws, appTransactionId: appTransaction?.payload.appTransactionId,
        originalApplicationVersion: appTransaction?.payload.originalApplicationVersion,
        originalPurchaseMilliseconds: appTransaction?.payload.originalPurchaseDate?
          .millisecondsSince1970,
        customerId: current.id, now: now().millisecondsSince1970)
    }
    summary.customers += 1
  }

  // MARK: - Outcomes

  /// Stores an id's outcome and, when it led to a customer, links the accounts holding the id
  /// to that customer, in one transaction.
  private func record(
    _ id: String, _ outcome: String, environment: String?, customer: Int64?,
    accounts: [String] = [], error: String? = nil
  ) throws {
    try store.writeTransaction {
      try store.storeSeedOutcome(
        SeedOutcomeRow(
          originalTransactionId: id, outcome: outcome, environment: environment,
          customerId: customer, lastError: error),
        now: now().millisecondsSince1970)
      if let customer {
        for account in accounts { try store.linkAccount(account, toCustomer: customer) }
      }
    }
    summary.idOutcomes[outcome, default: 0] += 1
    if outcome == "failed" { observer?.counted(Self.name, "failures", by: 1) }
  }

  /// Records that an id belongs to a customer already known. When that customer failed in this
  /// run, the id fails with the customer's reason: "covered" would claim data that is not
  /// there, and the comparison would blame an interrupted backfill instead of the real cause.
  private func record(
    _ id: String, covering customer: Int64, environment: String?, accounts: [String]
  ) throws {
    if let reason = failedThisRun[customer] {
      try record(
        id, "failed", environment: environment, customer: customer, accounts: accounts,
        error: reason)
    } else {
      try record(id, "covered", environment: environment, customer: customer, accounts: accounts)
    }
  }

  /// Records why an id led nowhere: unknown in both environments, malformed, or failed.
  private func failure(_ id: String, _ error: AppStoreAPIError) throws {
    if case .unauthorized = error.kind { throw error }
    if error.errorCode == .invalidAppIdentifier { throw error }
    switch error.kind {
    case .notFoundInAnyEnvironment(let tried):
      // Which environments were asked: a later run that asks more tries the id again.
      try record(
        id, "unknown", environment: tried.map(\.rawValue).joined(separator: "+"), customer: nil)
    case .server where error.errorCode == .invalidTransactionId:
      try record(id, "invalid", environment: nil, customer: nil)
    case .cancelled: throw CancellationError()
    default: try record(id, "failed", environment: nil, customer: nil, error: error.description)
    }
  }

  /// Records that a customer could not be completed: every id that led to it is failed, so the
  /// comparison says so instead of guessing, and a rerun tries again.
  private func fail(customer: CustomerRow, _ error: AppStoreAPIError, reason: String? = nil)
    throws
  {
    if case .unauthorized = error.kind { throw error }
    if case .cancelled = error.kind { throw CancellationError() }
    let reason = reason ?? error.description
    failedThisRun[customer.id] = reason
    try store.markSeedsFailed(
      customerId: customer.id, error: reason, now: now().millisecondsSince1970)
    observer?.counted(Self.name, "failures", by: 1)
  }

  // MARK: - Mapping

  /// Every transaction, oldest first: the only order whose revision tokens resume a walk and
  /// serve later incremental syncs.
  static let historyQuery = HistoryQuery(sort: .ascending)

  /// The customer key: the `appTransactionId` every transaction of an Apple Account carries,
  /// else the smallest original transaction id of the first page.
  static func customerKey(of transactions: [JWSTransaction]) -> String {
    if let appTransactionId = transactions.lazy.compactMap(\.appTransactionId).first {
      return appTransactionId
    }
    return "original:" + (transactions.compactMap(\.originalTransactionId).min() ?? "unknown")
  }

  static func row(_ verified: Verified<JWSTransaction>) -> TransactionRow {
    let transaction = verified.payload
    var row = TransactionRow(transactionId: transaction.transactionId ?? "", jws: verified.jws)
    row.originalTransactionId = transaction.originalTransactionId
    row.productId = transaction.productId
    row.subscriptionGroup = transaction.subscriptionGroupIdentifier
    row.type = transaction.type?.rawValue
    row.purchaseMilliseconds = transaction.purchaseDate?.millisecondsSince1970
    row.originalPurchaseMilliseconds = transaction.originalPurchaseDate?.millisecondsSince1970
    row.expiresMilliseconds = transaction.expiresDate?.millisecondsSince1970
    row.revocationMilliseconds = transaction.revocationDate?.millisecondsSince1970
    row.revocationReason = transaction.revocationReason?.rawValue
    row.revocationType = transaction.revocationType?.rawValue
    row.revocationPercentage = transaction.revocationPercentage.map(Int64.init)
    row.isUpgraded = transaction.isUpgraded
    row.ownership = transaction.inAppOwnershipType?.rawValue
    row.offerType = transaction.offerType?.rawValue
    row.offerIdentifier = transaction.offerIdentifier
    row.transactionReason = transaction.transactionReason?.rawValue
    row.environment = transaction.environment?.rawValue
    row.appTransactionId = transaction.appTransactionId
    row.appAccountToken = transaction.appAccountToken
    row.signedMilliseconds = transaction.signedDate?.millisecondsSince1970
    row.compact = CompactCopy(
      format: CompactTransaction.formatVersion, body: CompactTransaction.encode(transaction))
    return row
  }

  static func rows(_ response: StatusResponse) -> [StatusRow] {
    response.groups.flatMap { group in
      group.lastTransactions.map { entry in
        var row = StatusRow(
          originalTransactionId: entry.originalTransactionId,
          subscriptionGroup: group.subscriptionGroupIdentifier,
          status: entry.status.rawValue, transactionJWS: entry.transaction.jws)
        let renewal = entry.renewalInfo.payload
        row.autoRenewStatus = renewal.autoRenewStatus.map { $0 == .on }
        row.autoRenewProductId = renewal.autoRenewProductId
        row.expirationIntent = renewal.expirationIntent?.rawValue
        row.isInBillingRetryPeriod = renewal.isInBillingRetryPeriod
        row.gracePeriodExpiresMilliseconds = renewal.gracePeriodExpiresDate?.millisecondsSince1970
        row.renewalSignedMilliseconds = renewal.signedDate?.millisecondsSince1970
        row.renewalJWS = entry.renewalInfo.jws
        row.transactionId = entry.transaction.payload.transactionId
        row.expiresMilliseconds = entry.transaction.payload.expiresDate?.millisecondsSince1970
        row.signedMilliseconds =
          (renewal.signedDate ?? entry.transaction.payload.signedDate)?
          .millisecondsSince1970
        return row
      }
    }
  }
}
