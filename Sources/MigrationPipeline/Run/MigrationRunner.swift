import AppStoreServerAPI
import Chronology
import Entitlements
import Foundation
import JSON
import LegacyReceipts
import MigrationReports
import MigrationStore

/// The main job: ingest → backfill → compare → report, each stage over the store, so a killed
/// run resumes where it stopped and a report can be regenerated without the network.
///
/// ``run()`` runs them all; the stages are also public one by one for the `ingest`, `backfill`
/// and `compare` commands. Each stage opens its own connection to the store.
public struct MigrationRunner: Sendable {
  private let storePath: String
  private let appStore: ConnectedAppStore?
  let options: MigrationRunOptions
  private let toolVersion: String
  let now: @Sendable () -> Timestamp
  private let observer: (any ProgressObserver)?

  /// Creates a runner.
  ///
  /// - Parameters:
  ///   - storePath: the store file.
  ///   - appStore: the App Store to backfill from (Apple's or the simulator), or `nil` when
  ///     only stages that need no network run.
  ///   - options: what to read, compare and write.
  ///   - toolVersion: the tool's version, for the report.
  ///   - now: the clock.
  ///   - observer: where progress goes.
  public init(
    storePath: String, appStore: ConnectedAppStore?, options: MigrationRunOptions,
    toolVersion: String, now: @escaping @Sendable () -> Timestamp,
    observer: (any ProgressObserver)? = nil
  ) {
    self.storePath = storePath
    self.appStore = appStore
    self.options = options
    self.toolVersion = toolVersion
    self.now = now
    self.observer = observer
  }

  /// Runs every stage: ingest (skipped when these inputs were ingested already), backfill
  /// (which sends no request when every customer is complete), refresh (which asks only what may
  /// have changed since the store last asked), compare, report — then hands the outcome to
  /// `delivering` (which prints it and sends the alerts) and records the run as ended.
  ///
  /// Only an ended run is a baseline for the next: if the process dies before `delivering`
  /// returns, the next run counts and lists the same changes again.
  ///
  /// - Parameter delivering: what tells a person about the run; the run ends when it returns.
  /// - Returns: the outcome, with the exit status it asks for.
  /// - Throws: configuration problems (an unreadable catalogue or table, a store holding
  ///   another App Store's data), `SQLiteError`, authentication failures from the App Store,
  ///   `ReportError`, `CancellationError`, and what `delivering` throws (the run is then not
  ///   ended).
  public func run(
    delivering: (MigrationOutcome) async throws -> Void = { _ in }
  ) async throws -> MigrationOutcome {
    let started = now()
    let appStoreStart = appStoreNow()
    // Before anything is written: a store holding another App Store's data takes nothing in.
    if let appStore {
      let store = try openStore()
      defer { try? store.close() }
      try claimProvenance(store, appStore)
    }
    var durations: [StageDuration] = []
    let ingestBegan = now()
    let ingest = try self.ingest()
    // Accounts of the team table the legacy data does not hold get their table's ids as seeds.
    let adoption = try adoptTableAccounts()
    durations.append(
      StageDuration(stage: "ingest", milliseconds: now().milliseconds(since: ingestBegan)))
    let backfillBegan = now()
    var backfill = try await self.backfill()
    durations.append(
      StageDuration(stage: "backfill", milliseconds: now().milliseconds(since: backfillBegan)))
    let refreshBegan = now()
    let refresh = try await self.refresh(
      runStartedAt: appStoreStart, accountsOutsideStore: adoption.outsiders)
    if refresh.followedCustomers > 0 {
      // Customers a notification's token led to an account: fetched now, like new ids.
      backfill = try await self.backfill()
    }
    durations.append(
      StageDuration(stage: "refresh", milliseconds: now().milliseconds(since: refreshBegan)))
    let run = try compare(
      ingest: ingest, refresh: refresh, startedAt: started, earlierStages: durations,
      tableAccountsAdopted: adoption.adopted)
    let directory = try writeReport(run)
    let outcome = MigrationOutcome(
      ingest: ingest, backfill: backfill, refresh: refresh, run: run,
      reportDirectory: directory)
    try await delivering(outcome)
    try end(run)
    return outcome
  }

  /// Records that a run's command ended: its outcome was told (headline printed, alerts handed
  /// over). From now on it is the baseline of the next run, if its report was committed.
  ///
  /// - Parameter run: the run.
  /// - Throws: `SQLiteError`.
  public func end(_ run: RecordedRun) throws {
    let store = try openStore()
    defer { try? store.close() }
    try store.runLedger.recordEnd(
      run.summary.runId, exitCode: run.exitStatus, at: now().millisecondsSince1970)
  }

  // MARK: - Stages

  /// Ingests the legacy inputs, unless the store's last finished ingest read exactly these
  /// inputs (same paths, sizes and modification times, same options).
  ///
  /// - Returns: the ingest summary, or `nil` when the stage was skipped.
  /// - Throws: `SQLiteError`, `CancellationError`.
  public func ingest() throws -> IngestSummary? {
    let catalog = try options.catalogPath.map { try ProductCatalog(csv: try Self.readText($0)) }
    let store = try openStore()
    defer { try? store.close() }
    let stage = IngestStage(
      store: store,
      options: IngestOptions(paths: options.legacyPaths, reader: options.reader, catalog: catalog),
      now: now, observer: observer)
    return try stage.inputsAreAlreadyIngested() ? nil : try stage.run()
  }

  /// Backfills every account from the App Store; see ``BackfillStage``.
  ///
  /// - Returns: what the stage did.
  /// - Throws: ``StoreProvenance/Mismatch`` when the store holds another App Store's data,
  ///   ``RunRecipe/Failure`` when the runner has no App Store, `SQLiteError`, authentication
  ///   failures, `CancellationError`.
  public func backfill() async throws -> BackfillSummary {
    guard let appStore else {
      throw RunRecipe.Failure(description: "the backfill needs an App Store to talk to")
    }
    let store = try openStore()
    try claimProvenance(store, appStore)
    return try await BackfillStage(
      store: store, client: appStore.client, options: options.backfill, now: now,
      appStoreNow: appStoreNow, observer: observer
    ).run()
  }

  /// Brings the App Store side up to date; see ``RefreshStage``.
  ///
  /// - Parameters:
  ///   - runStartedAt: when the run began, on the App Store's clock; see
  ///     ``RefreshStage/init(store:client:options:now:appStoreNow:freshSince:observer:)``.
  ///   - accountsOutsideStore: accounts of the team table the store does not hold, for a token
  ///     mapping derived from account ids.
  /// - Returns: what the stage did.
  /// - Throws: ``RunRecipe/Failure`` when the runner has no App Store, `SQLiteError`,
  ///   authentication failures, `CancellationError`.
  public func refresh(runStartedAt: Timestamp? = nil, accountsOutsideStore: [String] = [])
    async throws -> RefreshSummary
  {
    guard let appStore else {
      throw RunRecipe.Failure(description: "the refresh needs an App Store to talk to")
    }
    let store = try openStore()
    try claimProvenance(store, appStore)
    var refreshOptions = options.refresh
    // Customers outside the store are followed through the team's tokens, when it gives them.
    refreshOptions.tokenMapping = try options.tokens.map {
      try $0.load(accounts: try store.accountIds() + accountsOutsideStore).mapping
    }
    let stage = RefreshStage(
      store: store, client: appStore.client, options: refreshOptions, now: now,
      appStoreNow: appStoreNow, freshSince: runStartedAt, observer: observer)
    // The time budget bounds the client's waits as well as its requests: a retry or a
    // `Retry-After` that would end after it is not waited for.
    let deadline = options.refresh.maxDurationMilliseconds.map {
      RequestDeadline(
        instant: now().adding(milliseconds: $0), name: "the refresh's time budget (--max-duration)")
    }
    return try await RequestDeadline.$current.withValue(deadline) { try await stage.run() }
  }

  /// The App Store's clock: the simulator's own, or the wall clock for Apple.
  private var appStoreNow: @Sendable () -> Timestamp {
    if let clock = appStore?.clock { return { clock } }
    return now
  }

  /// Compares every account as of the options' instant and records the run in the store:
  /// its recipe (so it can be recomputed later), the team table it compared, every account's
  /// classification, what changed since the previous run, the lost notifications it reports,
  /// and the summary.
  ///
  /// - Parameters:
  ///   - ingest: the ingest summary of this run, if ingest ran.
  ///   - refresh: the refresh summary of this run, if it refreshed.
  ///   - startedAt: when the run started; now when `nil`.
  ///   - earlierStages: the durations of the stages this run ran before.
  ///   - tableAccountsAdopted: accounts of the team table this run backfilled from its ids.
  /// - Returns: the recorded run.
  /// - Throws: `SQLiteError`, an unreadable catalogue or team table, an unknown `since` run.
  public func compare(
    ingest: IngestSummary? = nil, refresh: RefreshSummary? = nil, startedAt: Timestamp? = nil,
    earlierStages: [StageDuration] = [], tableAccountsAdopted: Int = 0
  ) throws -> RecordedRun {
    let started = startedAt ?? now()
    let runId = options.runId ?? Self.runId(startedAt: started)
    let catalogText = try options.catalogPath.map(Self.readText)
    // Checked before the run begins; read into the store a block at a time once it has.
    try options.currentEntitlementsPath.map(CurrentEntitlementsReader.validate)
    let store = try openStore()
    defer { try? store.close() }
    let source = try appStore?.source ?? StoreProvenance.recorded(in: store) ?? Self.noAppStore
    let tokens = try options.tokens.map { try $0.load(accounts: try store.accountIds()) }
    let asOf =
      try options.asOf ?? appStore?.clock ?? StoreProvenance.recordedClock(in: store) ?? now()
    var recipe = RunRecipe(
      asOf: asOf, catalogText: catalogText,
      catalogFile: options.catalogPath.map(Self.fileName),
      teamTableFile: options.currentEntitlementsPath.map(Self.fileName),
      legacyPaths: options.legacyPaths, isSimulated: source.isSimulated)
    recipe.teamTablePath = options.currentEntitlementsPath.map(Self.absolutePath)
    recipe.maxDataAgeMilliseconds = options.refresh.maxDataAgeMilliseconds
    recipe.watermarks = try store.watermarks()
    switch options.tokens {
    case .file(let path)?: recipe.tokensFile = Self.fileName(path)
    case .derived(let namespace)?: recipe.tokensNamespace = namespace
    case nil: break
    }
    let runRow = RunRow(
      id: runId, startedMilliseconds: started.millisecondsSince1970, finishedMilliseconds: nil,
      asOfMilliseconds: asOf.millisecondsSince1970, isSimulated: source.isSimulated,
      inputs: recipe.json, summary: nil, command: options.command,
      commandLine: Self.json(options.commandLine), recipeKey: recipe.key)
    try store.runLedger.begin(runRow)
    var rejectedTableRows: [(line: Int, reason: String)] = []
    if let tablePath = options.currentEntitlementsPath {
      try store.storeCurrentEntitlements([], runId: runId)
      rejectedTableRows = try CurrentEntitlementsReader.read(tablePath) { rows in
        try store.appendCurrentEntitlements(
          rows.map {
            CurrentEntitlementRow(
              accountId: $0.accountId, productId: $0.row.productId,
              status: $0.row.status.rawValue,
              expiresMilliseconds: $0.row.expiresAt?.millisecondsSince1970)
          }, runId: runId)
      }.rejected
    }
    if case .file? = options.tokens, let tokens {
      try store.storeRunAccountTokens(
        tokens.mapping.tokensInAccountOrder,
        runId: runId)
    }
    let compareBegan = now()
    // Transactions stored before the store kept compact copies get theirs once, here: the
    // comparison reads a customer's copies only when it has one for every transaction.
    try TransactionCopyStage(store: store, observer: observer).run()
    // One pass, a chunk at a time: each chunk is stored and counted, then dropped. The report
    // orders the stored classifications and computes the comparisons again as it writes them.
    var statistics = RunStatistics()
    var failOn = options.failOn.map(FailOnTally.init)
    try store.clearComparisons(runId: runId)
    let compared = try CompareStage(
      store: store, options: try recipe.compareOptions(store: store, runId: runId),
      observer: observer
    ).run { chunk in
      try store.appendComparisons(chunk.map(Self.row), runId: runId)
      for comparison in chunk {
        statistics.add(comparison)
        failOn?.add(comparison)
      }
    }
    let difference = try RunDifference.of(
      run: runRow, since: options.since, store: store,
      previousOf: failOn?.accountsNeedingPrevious ?? [])
    try store.claimUnreportedLostNotifications(for: runId)
    try store.claimUnreportedInvalidNotifications(for: runId)
    let lost = try Self.lostNotifications(reportedBy: runId, store: store)
    let pending = try store.pendingNotifications().map(LostNotificationListings.notification)
    let tableOnly =
      options.currentEntitlementsPath == nil ? [] : try store.tableOnlyAccounts(runId: runId)
    let unclaimed = try Self.unclaimedCustomers(store: store)
    let durations =
      earlierStages + [
        StageDuration(stage: "compare", milliseconds: now().milliseconds(since: compareBegan))
      ]
    var summary = RunSummary(
      runId: runId, toolVersion: toolVersion, startedAt: started, finishedAt: now(),
      asOf: asOf, appStore: source,
      inputs: try Self.inputs(ingest: ingest, store: store, accounts: compared),
      stageDurations: durations,
      requests: appStore.map {
        Self.statistics($0.client.counters.snapshot(), limiter: $0.client.rateLimiter)
      } ?? [],
      teamTableFile: recipe.teamTableFile,
      failOn: failOn.map { tally in
        let uncompared = difference?.uncomparedSides ?? []
        return FailOnThreshold(
          expression: tally.policy.expression,
          isCrossed: tally.isCrossed(
            previous: difference?.previous, uncomparedSides: uncompared,
            lostNotifications: lost.count),
          unevaluated: difference == nil ? [] : tally.unevaluated(uncomparedSides: uncompared),
          counted: tally.count(previous: difference?.previous, uncomparedSides: uncompared),
          tolerated: tally.policy.threshold, counts: tally.policy.meaning)
      })
    summary.refresh = refresh.map(Self.facts)
    summary.since = difference?.counts
    summary.lostNotifications = lost.count
    summary.pendingNotifications = pending.count
    summary.tableAccountsAdopted = tableAccountsAdopted
    summary.tableOnlyAccounts = tableOnly.count
    summary.unclaimedCustomers = unclaimed.count
    summary.responsesSetAside = statistics.responsesSetAside
    summary.accountsWithResponsesSetAside = statistics.accountsWithResponsesSetAside
    summary.tokenMapping = recipe.tokenMapping
    summary.command = options.command
    summary.commandLine = options.commandLine
    summary.usedInputs = options.usedInputs
    summary.impactCounts = statistics.impactCounts
    summary.tableImpactCounts = recipe.teamTableFile == nil ? nil : statistics.tableImpactCounts
    summary.rateShare = appStore?.client.configuration.rateLimits.share
    summary.dataAge = try Self.dataAge(store: store, asOf: asOf, options: options.refresh)
    for statistics in summary.requests {
      try store.storeRequestCounters(
        RunSummaryCodec.encode(endpoint: statistics), endpoint: statistics.endpoint, runId: runId)
    }
    let storePath = self.storePath
    let clock = now
    let finalRecipe = recipe
    var recorded = RecordedRun(
      summary: summary, statistics: statistics,
      rejectedTableRows: rejectedTableRows, changes: difference?.changes ?? [],
      lostNotifications: lost, quarantinedTokenRows: tokens?.quarantined ?? [],
      load: {
        let store = try MigrationStore(path: storePath, now: { clock().millisecondsSince1970 })
        defer { try? store.close() }
        return try CompareStage(
          store: store, options: try finalRecipe.compareOptions(store: store, runId: runId)
        ).run()
      })
    recorded.pendingNotifications = pending
    recorded.tableOnlyAccounts = tableOnly.map(\.accountId)
    recorded.unclaimedCustomers = unclaimed
    recorded.summary.exitCode = recorded.exitStatus
    try store.runLedger.finish(
      runId, finishedMilliseconds: summary.finishedAt.millisecondsSince1970,
      summary: RunSummaryCodec.encode(recorded.summary))
    return recorded
  }

  /// Writes a recorded run's report into `<reports>/<run id>/` and points `latest` at it.
  ///
  /// - Parameter run: the run.
  /// - Returns: the run folder.
  /// - Throws: `ReportError`, or a redaction salt that cannot be used.
  public func writeReport(_ run: RecordedRun) throws -> String {
    var reportOptions = try options.reportOptions()
    let store = try openStore()
    defer { try? store.close() }
    let row = try store.runLedger.run(run.summary.runId)
    let recipe = try RunRecipe.read(
      row
        ?? { throw RunRecipe.Failure(description: "the run \(run.summary.runId) is not stored") }())
    reportOptions.teamTableFormat = TeamTableFormat.read(path: recipe.teamTablePath)
    let stage = CompareStage(
      store: store, options: try recipe.compareOptions(store: store, runId: run.summary.runId))
    var context = run.context
    if run.summary.isAudit {
      context.trend = try RunTrend.points(
        of: run.summary.runId, in: store, reportsDirectory: options.reportsDirectory)
    }
    let directory = try ReportWriter.writeRun(
      summary: run.summary,
      source: try StoredComparisons(stage: stage, outline: .storedRun(run.summary.runId)),
      context: context,
      reportsDirectory: options.reportsDirectory, options: reportOptions)
    // Only now is the run a baseline for the next, and its lost notifications handed over.
    try store.runLedger.markReported(
      run.summary.runId, directory: Self.absolutePath(directory),
      at: now().millisecondsSince1970)
    return directory
  }

  // MARK: - Helpers

  private func claimProvenance(_ store: MigrationStore, _ appStore: ConnectedAppStore) throws {
    try StoreProvenance.claim(
      store, source: appStore.source, identity: appStore.identity, clock: appStore.clock,
      now: now().millisecondsSince1970)
  }

  func openStore() throws -> MigrationStore {
    try MigrationStore(path: storePath, now: { now().millisecondsSince1970 })
  }

  /// How a run without App Store data names the App Store.
  static let noAppStore = AppStoreSource(
    isSimulated: false, description: "no App Store (nothing was backfilled)", environment: "")

  /// The run's legacy input counts: this run's ingest, or the store's totals when the inputs
  /// had been ingested before (so a rerun reports the same counts as the first run).
  static func inputs(ingest: IngestSummary?, store: MigrationStore, accounts: Int) throws
    -> RunInputs
  {
    if let ingest {
      return RunInputs(
        recordsRead: ingest.recordsRead, recordsAccepted: ingest.accepted,
        recordsPartial: ingest.partial, recordsQuarantined: ingest.quarantined, accounts: accounts)
    }
    let counts = try store.legacyRecordCounts()
    return RunInputs(
      recordsRead: counts.accepted + counts.partial + counts.quarantined,
      recordsAccepted: counts.accepted, recordsPartial: counts.partial,
      recordsQuarantined: counts.quarantined, accounts: accounts)
  }

  /// `20251101T000000Z-3f9a`: the start instant, and a random suffix so two runs started in the
  /// same second do not collide.
  ///
  /// - Parameter startedAt: when the run started.
  /// - Returns: the id.
  public static func runId(startedAt: Timestamp) -> String {
    let civil = CivilTime(startedAt)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let suffix = String(UInt16.random(in: 0...UInt16.max), radix: 16)
    return
      "\(civil.year)\(two(civil.month))\(two(civil.day))T\(two(civil.hour))\(two(civil.minute))\(two(civil.second))Z-"
      + String(repeating: "0", count: 4 - suffix.count) + suffix
  }

  static func readText(_ path: String) throws -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw RunRecipe.Failure(description: "cannot read \(path)")
    }
    return String(decoding: data, as: UTF8.self)
  }

  static func fileName(_ path: String) -> String {
    URL(fileURLWithPath: path).lastPathComponent
  }

  /// The path made absolute against the working directory (and `..` resolved), so that a run
  /// started elsewhere — by cron, in another folder — names the same file.
  public static func absolutePath(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// Arguments as a JSON array, or `nil` when there are none.
  static func json(_ arguments: [String]) -> String? {
    guard !arguments.isEmpty else { return nil }
    var writer = JSONWriter()
    writer.beginArray()
    for argument in arguments { writer.value(argument) }
    writer.endArray()
    return writer.string
  }

  static func row(_ comparison: AccountComparison) -> ComparisonRow {
    ComparisonRow(
      accountId: comparison.accountId, category: comparison.category.rawValue,
      tableCategory: comparison.tableCategory?.rawValue, cause: comparison.cause?.rawValue,
      explanation: comparison.explanation)
  }

  /// A refresh summary as the reports show it.
  static func facts(_ summary: RefreshSummary) -> RefreshFacts {
    var facts = RefreshFacts(
      notificationPages: summary.notificationPages, notificationsRead: summary.notificationsRead,
      lostNotificationsFound: summary.lostNotificationsFound, dueByReason: summary.dueByReason,
      refreshed: summary.refreshed, historyPages: summary.historyPages,
      statusCalls: summary.statusCalls, failed: summary.failed, stillDue: summary.stillDue,
      requests: summary.requests, budgetExhausted: summary.budgetExhausted,
      warnings: summary.warnings,
      watermarks: summary.watermarks.mapValues(Timestamp.init(millisecondsSince1970:)))
    facts.feeds = summary.feeds
    facts.invalidNotifications = summary.invalidNotifications
    facts.pendingNotifications = summary.pendingNotifications
    facts.deliveredLate = summary.deliveredLate
    facts.failurePages = summary.failurePages
    facts.feedRequests = summary.feedRequests
    facts.transactionLookups = summary.transactionLookups
    facts.notificationsOutsideStore = summary.notificationsOutsideStore
    return facts
  }

  /// How old the App Store data of the store's complete customers is at `asOf`, or `nil` when
  /// the store holds none.
  static func dataAge(store: MigrationStore, asOf: Timestamp, options: RefreshOptions) throws
    -> DataAgeFacts?
  {
    let ages = try store.dataAges(
      olderThan: asOf.millisecondsSince1970 - options.maxDataAgeMilliseconds)
    guard ages.customers > 0 else { return nil }
    return DataAgeFacts(
      customers: ages.customers, oldest: ages.oldest.map(Timestamp.init(millisecondsSince1970:)),
      median: ages.median.map(Timestamp.init(millisecondsSince1970:)),
      maxDataAgeMilliseconds: options.maxDataAgeMilliseconds, olderThanBound: ages.older)
  }

  /// The lost notifications a run reports, as the reports show them.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - store: the store.
  /// - Returns: the notifications, in time order.
  /// - Throws: `SQLiteError`.
  public static func lostNotifications(reportedBy runId: String, store: MigrationStore) throws
    -> [LostNotification]
  {
    try LostNotificationListings.reported(by: runId, store: store)
  }

  /// The App Store customers no account claims now, as the reports list them.
  ///
  /// - Parameter store: the store.
  /// - Returns: the customers, by environment and key.
  /// - Throws: `SQLiteError`.
  static func unclaimedCustomers(store: MigrationStore) throws -> [UnclaimedCustomer] {
    try store.unclaimedCustomers(stillOutside: true).map {
      UnclaimedCustomer(
        environment: $0.environment, customerKey: $0.customerKey,
        originalTransactionId: $0.originalTransactionId, appAccountToken: $0.appAccountToken,
        notifications: $0.notifications, lastType: $0.lastType,
        lastSigned: $0.lastSignedMilliseconds.map(Timestamp.init(millisecondsSince1970:)))
    }
  }

  /// The client's counters as the report's request statistics, with the rate each endpoint
  /// was capped at and its busiest second when the limiter is given (of the environment whose
  /// busiest second was busier, production on a tie).
  public static func statistics(
    _ snapshot: RequestCountersSnapshot, limiter: EndpointRateLimiter? = nil
  ) -> [EndpointStatistics] {
    snapshot.endpoints.keys.sorted().map { endpoint in
      let counts = snapshot[endpoint]
      var statistics = EndpointStatistics(
        endpoint: endpoint.rawValue, requests: counts.requests, successes: counts.successes,
        failures: counts.failures,
        retries: counts.retries, rateLimited: counts.rateLimited,
        transportErrors: counts.transportErrors,
        verificationFailures: counts.verificationFailures, errorsByStatus: counts.errorsByStatus,
        errorsByCode: counts.errorsByCode)
      if let limiter {
        let busiest =
          [AppStoreEnvironment.production, .sandbox].max {
            limiter.busiestSecond(of: endpoint, in: $0)
              < limiter.busiestSecond(of: endpoint, in: $1)
          } ?? .production
        statistics.rateCap = limiter.limits.requestsPerSecond(for: endpoint, in: busiest)
        statistics.busiestSecond = limiter.busiestSecond(of: endpoint, in: busiest)
      }
      return statistics
    }
  }
}
