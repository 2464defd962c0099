import AppStoreServerAPI
import Chronology
import Entitlements
import Foundation
import LegacyReceipts
import MigrationReports
import MigrationStore

/// The main job: ingest → backfill → compare → report, each stage over the store, so a killed
/// run resumes where it stopped and a report can be regenerated without the network.
public struct MigrationRunner: Sendable {
  private let storePath: String
  private let client: AppStoreServerAPIClient
  private let appStore: AppStoreSource
  private let options: MigrationRunOptions
  private let toolVersion: String
  private let now: @Sendable () -> Timestamp
  private let observer: (any ProgressObserver)?

  /// Creates a runner.
  ///
  /// - Parameters:
  ///   - storePath: the store file.
  ///   - client: the App Store Server API client (Apple's or the simulator's).
  ///   - appStore: which App Store it is, for the report.
  ///   - options: what to read, compare and write.
  ///   - toolVersion: the tool's version, for the report.
  ///   - now: the clock.
  ///   - observer: where progress goes.
  public init(
    storePath: String, client: AppStoreServerAPIClient, appStore: AppStoreSource,
    options: MigrationRunOptions,
    toolVersion: String, now: @escaping @Sendable () -> Timestamp,
    observer: (any ProgressObserver)? = nil
  ) {
    self.storePath = storePath
    self.client = client
    self.appStore = appStore
    self.options = options
    self.toolVersion = toolVersion
    self.now = now
    self.observer = observer
  }

  /// Runs every stage.
  ///
  /// - Returns: the outcome, with the exit status it asks for.
  /// - Throws: configuration problems (an unreadable catalogue or table), `SQLiteError`,
  ///   authentication failures from the App Store, `ReportError`.
  public func run() async throws -> MigrationOutcome {
    let started = now()
    let runId = Self.runId(startedAt: started)
    let catalogText = try options.catalogPath.map(Self.readText)
    let catalog = try catalogText.map { try ProductCatalog(csv: $0) }
    let table = try options.currentEntitlementsPath.map(CurrentEntitlementsReader.read)
    let recipe = RunRecipe(
      asOf: options.asOf, catalogText: catalogText,
      catalogFile: options.catalogPath.map(Self.fileName),
      teamTableFile: options.currentEntitlementsPath.map(Self.fileName),
      legacyPaths: options.legacyPaths,
      isSimulated: appStore.isSimulated)
    var durations: [StageDuration] = []
    func timed<T>(_ stage: String, _ body: () async throws -> T) async rethrows -> T {
      let begin = now()
      defer {
        durations.append(
          StageDuration(stage: stage, milliseconds: now().milliseconds(since: begin)))
      }
      return try await body()
    }

    // Ingest, unless these very inputs were ingested already.
    let store = try MigrationStore(path: storePath, now: { now().millisecondsSince1970 })
    try store.beginRun(
      RunRow(
        id: runId, startedMilliseconds: started.millisecondsSince1970, finishedMilliseconds: nil,
        asOfMilliseconds: options.asOf.millisecondsSince1970, isSimulated: appStore.isSimulated,
        inputs: recipe.json,
        summary: nil))
    if let table {
      try store.storeCurrentEntitlements(
        table.rows.flatMap { account, rows in
          rows.map {
            CurrentEntitlementRow(
              accountId: account, productId: $0.productId, status: $0.status.rawValue,
              expiresMilliseconds: $0.expiresAt?.millisecondsSince1970)
          }
        }.sorted { ($0.accountId, $0.productId) < ($1.accountId, $1.productId) }, runId: runId)
    }
    let ingestStage = IngestStage(
      store: store,
      options: IngestOptions(paths: options.legacyPaths, reader: options.reader, catalog: catalog),
      now: now,
      observer: observer)
    let ingest = try await timed("ingest") {
      try ingestStage.inputsAreAlreadyIngested() ? nil : try ingestStage.run()
    }
    try store.close()

    // Backfill, on its own connection.
    let backfill = try await timed("backfill") {
      let connection = try MigrationStore(path: storePath, now: { now().millisecondsSince1970 })
      return try await BackfillStage(
        store: connection, client: client, options: options.backfill, now: now, observer: observer
      ).run()
    }

    // Compare and report.
    let reader = try MigrationStore(path: storePath, now: { now().millisecondsSince1970 })
    let comparisons = try await timed("compare") {
      try CompareStage(
        store: reader, options: try recipe.compareOptions(store: reader, runId: runId),
        observer: observer
      ).run()
    }
    try reader.storeComparisons(comparisons.map(Self.row), runId: runId)
    let totals = try reader.legacyTotals()
    var summary = RunSummary(
      runId: runId, toolVersion: toolVersion, startedAt: started, finishedAt: now(),
      asOf: options.asOf, appStore: appStore,
      inputs: RunInputs(
        recordsRead: ingest?.recordsRead ?? totals.records,
        recordsAccepted: ingest?.accepted ?? totals.records,
        recordsQuarantined: ingest?.quarantined ?? 0, accounts: comparisons.count),
      stageDurations: durations, requests: Self.statistics(client.counters.snapshot()),
      teamTableFile: recipe.teamTableFile,
      failOn: options.failOn.map {
        FailOnThreshold(expression: $0.expression, isCrossed: $0.isCrossed(by: comparisons))
      })
    let directory = try await timed("report") {
      try ReportWriter.writeRun(
        summary: summary, comparisons: comparisons, reportsDirectory: options.reportsDirectory,
        options: try reportOptions())
    }
    summary.stageDurations = durations
    summary.finishedAt = now()
    for statistics in summary.requests {
      try reader.storeRequestCounters(
        RunSummaryCodec.encode(endpoint: statistics), endpoint: statistics.endpoint, runId: runId)
    }
    try reader.finishRun(
      runId, finishedMilliseconds: summary.finishedAt.millisecondsSince1970,
      summary: RunSummaryCodec.encode(summary))
    try reader.close()
    return MigrationOutcome(
      summary: summary, comparisons: comparisons, reportDirectory: directory, ingest: ingest,
      backfill: backfill,
      rejectedTableRows: table?.rejected ?? [])
  }

  private func reportOptions() throws -> ReportOptions {
    var report = ReportOptions()
    if let salt = options.redactionSalt {
      report.pseudonymizer = try Pseudonymizer(salt: Array(salt.utf8))
    }
    return report
  }

  // MARK: - Helpers

  /// `20251101T000000Z-3f9a`: the start instant, and a random suffix so two runs started in the
  /// same second do not collide.
  static func runId(startedAt: Timestamp) -> String {
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

  static func row(_ comparison: AccountComparison) -> ComparisonRow {
    ComparisonRow(
      accountId: comparison.accountId, category: comparison.category.rawValue,
      tableCategory: comparison.tableCategory?.rawValue, cause: comparison.cause?.rawValue,
      explanation: comparison.explanation)
  }

  /// The client's counters as the report's request statistics.
  public static func statistics(_ snapshot: RequestCountersSnapshot) -> [EndpointStatistics] {
    snapshot.endpoints.keys.sorted().map { endpoint in
      let counts = snapshot[endpoint]
      return EndpointStatistics(
        endpoint: endpoint.rawValue, requests: counts.requests, successes: counts.successes,
        failures: counts.failures,
        retries: counts.retries, rateLimited: counts.rateLimited,
        transportErrors: counts.transportErrors,
        verificationFailures: counts.verificationFailures, errorsByStatus: counts.errorsByStatus,
        errorsByCode: counts.errorsByCode)
    }
  }
}
