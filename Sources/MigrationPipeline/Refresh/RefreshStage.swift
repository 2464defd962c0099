import AppStoreServerAPI
import Chronology
import MigrationStore

/// The refresh stage: keeps the App Store side of a store current at the cost of what changed.
///
/// 1. **Change feed.** For each environment the store's customers live in, its proof (a test
///    notification, at most once per proof interval), then the notification history from where
///    the store last read it (minus an overlap) to now, every page, each signed payload verified
///    on its own; the customers it names are due (one that fails verification names them only
///    as a hint; a customer outside the store is looked up at the App Store, then followed
///    through the token mapping or listed as unclaimed). Failed deliveries are pending, lost or
///    delivered late by Apple's retry schedule. When the feed cannot vouch for the time since —
///    not healthy, a window not read to its end, a notification naming no one — customers whose
///    data is older than `--max-data-age` are swept.
/// 2. **Local triggers.** Stored states that have run out by now (an active status past its
///    expiry, a grace period past its end) and billing retry make their customers due.
/// 3. **Per due customer**, most urgent first: one history call with the stored revision (only
///    what was added or changed since; more pages while `hasMore`), each page stored with its new
///    revision in one transaction; then one status call, stored together with taking the customer
///    off the queue. A revision Apple refuses (`4000005`) is asked once more; refused twice, the
///    customer's whole history is walked once; refused again, the customer fails for this run
///    with the reason (it stays due), so a revision Apple keeps refusing never loops.
///
/// Everything it learns is persisted as it goes — the window's pagination token with the
/// customers each page named, each history page with its revision, the statuses with the queue —
/// so a killed refresh loses nothing and a rerun repeats at most the requests in flight. A
/// budget (`maxRequests`, `maxDurationMilliseconds`) stops it early; what is left stays due for
/// the next run, and the comparison classifies those customers `stale_app_store_data`.
public actor RefreshStage {
  /// The stage's name in progress reports.
  public static let name = "refresh"

  let store: MigrationStore
  let client: AppStoreServerAPIClient
  let options: RefreshOptions
  let now: @Sendable () -> Timestamp
  let appStoreNow: @Sendable () -> Timestamp
  let observer: (any ProgressObserver)?
  /// Data fetched at or after this instant (App Store clock) was fetched by this very run: a
  /// state that cannot run out (billing retry) is not asked about again.
  let freshSince: Timestamp?
  var summary = RefreshSummary()
  /// Requests sent (or about to be) by the stage itself.
  var requestsReserved = 0
  /// When the stage started (wall clock), for the time budget.
  var startedAt = Timestamp.distantPast

  /// Creates the stage; it takes the store connection over.
  ///
  /// - Parameters:
  ///   - store: the store (not used by anyone else while the stage runs).
  ///   - client: the App Store Server API client.
  ///   - options: budget, overlap, concurrency.
  ///   - now: the wall clock, for bookkeeping and the time budget.
  ///   - appStoreNow: the App Store's clock (the simulator's, or the wall clock for Apple): what
  ///     "run out by now" and the end of a notification window mean.
  ///   - freshSince: when the run began, on the App Store's clock: a customer in billing retry
  ///     whose statuses were fetched since is not due (nothing can have changed), one fetched
  ///     earlier is.
  ///   - observer: where progress goes.
  public init(
    store: sending MigrationStore, client: AppStoreServerAPIClient, options: RefreshOptions,
    now: @escaping @Sendable () -> Timestamp, appStoreNow: (@Sendable () -> Timestamp)? = nil,
    freshSince: Timestamp? = nil, observer: (any ProgressObserver)? = nil
  ) {
    self.freshSince = freshSince
    self.store = store
    self.client = client
    self.options = options
    self.now = now
    self.appStoreNow = appStoreNow ?? now
    self.observer = observer
  }

  /// Runs the stage.
  ///
  /// - Returns: what it did.
  /// - Throws: `SQLiteError`, `CancellationError`, and a 401 that re-signing does not cure (or
  ///   `4000002`); other App Store problems are recorded per customer or per window.
  public func run() async throws -> RefreshSummary {
    startedAt = now()
    let clock = appStoreNow()
    try fillDecodedStatusColumns()
    for (environment, earliestFetch, unknownFetch) in try store.customerEnvironments() {
      guard let named = AppStoreEnvironment.named(environment),
        options.environment.map({ $0 == named }) ?? true
      else { continue }
      try await proveFeed(named, clock: clock)
      let reading = try await readNotifications(
        in: named, earliestFetch: unknownFetch > 0 ? nil : earliestFetch, clock: clock)
      try await lookUpInvalidNotifications(in: named)
      try await followPendingDeliveries(in: named, clock: clock)
      var feed = try assessFeed(named, reading: reading, clock: clock)
      // Whom the feed cannot vouch for tonight is asked again by the age of their data.
      var reasons: [String] = []
      if feed.needsAttention {
        reasons.append("the \(environment) change feed is \(feed.state.rawValue)")
      }
      if let failure = reading.failure {
        reasons.append(
          "the \(environment) notification history could not be read to the end: \(failure)")
      }
      if let unknown = reading.unreadableNotification { reasons.append(unknown) }
      if !reasons.isEmpty {
        feed.sweep = reasons.joined(separator: "; ")
        feed.swept = try sweep(environment, because: feed.sweep ?? "", clock: clock)
        let vouched = try store.notificationFeed(environment: environment)?.watermarkMilliseconds
        summary.warnings.append(
          "\(environment): the change feed cannot vouch for every customer tonight ("
            + (feed.sweep ?? "") + "): \(feed.swept) customer(s) whose App Store data is older "
            + "than --max-data-age were made due, oldest first"
            + (vouched.map { "; the feed last vouched for the data through \(Self.day($0))" }
              ?? ""))
      }
      summary.feeds.append(feed)
    }
    try followUnclaimedCustomers()
    try enqueueLocalTriggers(clock: clock)
    let queue = try store.refreshQueue()
    for row in queue { summary.dueByReason[row.reason.rawValue, default: 0] += 1 }
    observer?.stageStarted(Self.name, unit: "customers", total: Int64(queue.count))
    // Progress counts the customers whose refresh ended (refreshed, or failed with a reason):
    // a customer a spent budget left due is not done, and the line never says 100 % while
    // customers stay due.
    try await ConcurrentWork.forEach(
      queue, limit: options.concurrency, afterEach: {},
      body: { row in
        if try await self.refresh(row) { await self.customerFinished() }
      })
    try advanceWatermarks()
    summary.stillDue = try store.refreshQueue().count
    summary.pendingNotifications = try store.pendingNotifications().count
    summary.requests = requestsReserved
    summary.durationMilliseconds = now().milliseconds(since: startedAt)
    observer?.stageFinished(Self.name)
    return summary
  }

  private func customerFinished() {
    observer?.advanced(Self.name, by: 1)
  }

  // MARK: - Budget

  /// Takes one request from the budget, or says the budget is spent.
  func reserveRequest() -> Bool {
    if let limit = options.maxRequests, requestsReserved >= limit {
      summary.budgetExhausted = summary.budgetExhausted ?? "max-requests"
      return false
    }
    if let limit = options.maxDurationMilliseconds, now().milliseconds(since: startedAt) >= limit {
      summary.budgetExhausted = summary.budgetExhausted ?? "max-duration"
      return false
    }
    requestsReserved += 1
    observer?.counted(Self.name, "requests", by: 1)
    return true
  }

  // MARK: - One due customer

  /// Refreshes one due customer: the rest of its incremental history, then its statuses.
  ///
  /// - Returns: whether the customer's refresh ended (refreshed, or failed and recorded);
  ///   `false` when a spent budget left it due.
  private func refresh(_ row: RefreshQueueRow) async throws -> Bool {
    guard let customer = try store.customer(id: row.customerId) else { return true }
    let environment = AppStoreEnvironment.named(customer.environment) ?? .production
    let fetchedAt = appStoreNow()
    if !row.isHistoryDone {
      var revision = customer.historyRevision
      var refusals = 0
      while true {
        try StopRequest.checkpoint()
        guard reserveRequest() else { return false }
        let page: HistoryResponse
        do {
          page = try await client.transactionHistory(
            customer.walkTransactionId, query: BackfillStage.historyQuery, revision: revision,
            environment: environment)
        } catch {
          if error.errorCode == .invalidRevision, revision != nil {
            refusals += 1
            summary.revisionRefusals += 1
            switch refusals {
            case 1:
              // One refusal may be the App Store's passing state: the same request once more.
              continue
            case 2:
              // Refused twice: Apple no longer accepts the revision. The whole history, once.
              try store.restartRefreshHistory(
                customerId: customer.id, now: now().millisecondsSince1970)
              summary.revisionRestarts += 1
              revision = nil
              continue
            default:
              // Refused again, this time a revision the walk of the whole history was just
              // given: walking again would loop for ever. The customer stays due, with why.
              try fail(
                customer.id,
                reason: "the App Store refused its history revision (4000005) \(refusals) times, "
                  + "the last during a walk of its whole history; it is asked again on the next "
                  + "run")
              return true
            }
          }
          try fail(customer.id, error)
          return true
        }
        summary.historyPages += 1
        try store.storeRefreshPage(
          page.transactions.map(BackfillStage.row), customerId: customer.id,
          revision: page.revision, isLast: !page.hasMore, now: now().millisecondsSince1970)
        revision = page.revision
        if !page.hasMore { break }
      }
    }
    guard reserveRequest() else { return false }
    let statuses: StatusResponse
    do {
      statuses = try await client.allSubscriptionStatuses(
        customer.walkTransactionId, environment: environment)
    } catch {
      try fail(customer.id, error)
      return true
    }
    summary.statusCalls += 1
    try store.completeRefresh(
      statuses: BackfillStage.rows(statuses), customerId: customer.id,
      fetchedAt: fetchedAt.millisecondsSince1970, now: now().millisecondsSince1970)
    summary.refreshed += 1
    return true
  }

  /// Records a failed refresh (the customer stays due), or stops the run for problems no
  /// customer can get past.
  func fail(_ customerId: Int64, _ error: AppStoreAPIError) throws {
    if case .unauthorized = error.kind { throw error }
    if case .cancelled = error.kind { throw CancellationError() }
    if error.errorCode == .invalidAppIdentifier { throw error }
    try fail(customerId, reason: error.description)
  }

  /// Records a failed refresh with its reason; the customer stays due.
  func fail(_ customerId: Int64, reason: String) throws {
    try store.recordRefreshFailure(customerId: customerId, error: reason)
    summary.failed += 1
    observer?.counted(Self.name, "failures", by: 1)
  }

  // MARK: - Watermarks

  /// Moves each fully read environment's watermark up to where its notifications were read —
  /// only when its feed vouches for the time since: a feed that is not healthy (and not
  /// accepted) proves nothing, so "current through" stays where it was last proven. Customers
  /// still due do not hold it back: every customer a notification named up to there is on the
  /// due queue, and the comparison reads a due customer as `stale_app_store_data` whatever the
  /// watermark says; one customer whose refresh keeps failing must not age every other
  /// customer's data past `--max-data-age`.
  private func advanceWatermarks() throws {
    for (environment, _, _) in try store.customerEnvironments() {
      guard var feed = try store.notificationFeed(environment: environment) else { continue }
      let vouches =
        summary.feeds.first { $0.environment == environment }.map {
          !$0.needsAttention && $0.sweep == nil
        } ?? false
      if vouches, feed.window == nil, feed.watermarkMilliseconds < feed.pagedThroughMilliseconds {
        feed.watermarkMilliseconds = feed.pagedThroughMilliseconds
        try store.saveNotificationFeed(feed, now: now().millisecondsSince1970)
      }
      summary.watermarks[environment] = feed.watermarkMilliseconds
    }
  }

  // MARK: - Statuses stored before schema version 4

  /// Decodes the signed statuses stored before schema version 4 once, so the local triggers
  /// can be found with a query.
  private func fillDecodedStatusColumns() throws {
    while true {
      let rows = try store.statusesWithoutDecodedColumns(limit: 1000)
      guard !rows.isEmpty else { return }
      try store.writeTransaction {
        for row in rows {
          let transaction = try StoredSignedValue.decode(
            row.transactionJWS, as: JWSTransaction.self)
          let renewal = try row.renewalJWS.map {
            try StoredSignedValue.decode($0, as: JWSRenewalInfo.self)
          }
          try store.fillStatusColumns(
            customerId: row.customerId, originalTransactionId: row.originalTransactionId,
            transactionId: transaction.transactionId ?? "",
            expiresMilliseconds: transaction.expiresDate?.millisecondsSince1970,
            signedMilliseconds: (renewal?.signedDate ?? transaction.signedDate)?
              .millisecondsSince1970)
        }
      }
    }
  }
}
