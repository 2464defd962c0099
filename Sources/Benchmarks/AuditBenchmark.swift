import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import CryptoSupport
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore

/// `bench audit`: what a night of the nightly audit costs, against its floor and against a full
/// re-backfill.
///
/// A world is generated whose timeline goes on a few days past its clock (`simulator generate
/// --days-after`). Night 0 is the migration: the simulator is served at the world's clock in a
/// child process and the main job backfills every customer. Night N is the audit: the simulator
/// is served again at the clock plus N days, the team table is the one the world's flawed legacy
/// logic holds then (`simulator expected --at --table`), and the main job refreshes — reading
/// the notification history since night 0 and asking only the customers it names or whose
/// stored state has run out. The figures are the refresh's requests by endpoint (as the
/// simulator counted them) against the floor the refresh's own bookkeeping gives, the share of
/// customers whose facts changed in the world, and both nights' costs extrapolated to Apple's
/// documented 50 requests per second per endpoint. Then the same night without a change feed:
/// a copy of the migrated store audited against the world served with no notification URL
/// (`4040007`, an empty history), where the refresh sweeps every customer whose data is older
/// than the bound — its cost per night, and extrapolated to a million customers at the audit's
/// default rate share and at Apple's whole rate.
public enum AuditBenchmark {
  /// What to measure.
  public struct Settings: Sendable {
    /// The `receipt-migrate` binary that generates, serves and knows the world.
    public var executable: String
    /// How many team accounts the world has.
    public var accounts = 100_000
    /// The world's seed.
    public var seed: UInt64 = 1
    /// How many days after the migration the audit runs.
    public var days = 1
    /// Requests per second per endpoint and environment on loopback (simulator and client).
    public var rateLimit: Double = 400
    /// Latency the simulator adds to every answer, in milliseconds.
    public var latencyMilliseconds = 20
    /// Groups and customers worked on at once.
    public var concurrency = 64
    /// A scratch directory to use and keep, or `nil` for a temporary one.
    public var directory: String?

    /// Settings with the defaults above.
    ///
    /// - Parameter executable: the `receipt-migrate` binary.
    public init(executable: String) {
      self.executable = executable
    }
  }

  /// Apple's documented limit for history, statuses and notification history, per endpoint.
  public static let appleRequestsPerSecond = 50.0

  /// One night's run.
  public struct Night: Sendable {
    /// The App Store's clock that night.
    public var clock: Timestamp
    /// Wall seconds of the whole run.
    public var seconds: Double
    /// Wall seconds of the backfill and refresh stages.
    public var backfillSeconds: Double
    /// Wall seconds of the refresh stage.
    public var refreshSeconds: Double
    /// What the simulator answered, by environment and endpoint.
    public var served: SimulatorProcess.Outcome
    /// What the refresh did.
    public var refresh: RefreshSummary
    /// Accounts whose categories differ from the oracle's that night.
    public var mismatches: Int
    /// Accounts compared.
    public var accounts: Int
    /// Accounts in `stale_app_store_data`.
    public var stale: Int

    /// Requests answered per endpoint name, both environments together.
    public var requestsByEndpoint: [String: Int] {
      var counts: [String: Int] = [:]
      for (key, count) in served.requests { counts[key.endpoint, default: 0] += count }
      return counts
    }

    /// Seconds at Apple's documented rate: the busiest endpoint's requests over 50 per second
    /// (endpoints are limited separately, so they proceed side by side).
    public var secondsAtApplesRate: Double {
      Double(requestsByEndpoint.values.max() ?? 0) / AuditBenchmark.appleRequestsPerSecond
    }
  }

  /// The figures.
  public struct Report: Sendable {
    /// The settings.
    public var settings: Settings
    /// Customers in the store.
    public var customers: Int
    /// Stored customers whose facts changed in the world between the nights.
    public var changedCustomers: Int
    /// The migration night.
    public var migration: Night
    /// The audit night.
    public var audit: Night
    /// The same night without a change feed (no notification URL): every customer swept.
    public var noFeed: Night

    /// The refresh's floor: notification pages (and the `onlyFailures` pages that follow
    /// pending deliveries, and the feed's proof when one was due), plus each due customer's
    /// incremental history pages and one status call, as its bookkeeping counted them.
    public var floor: Int {
      audit.refresh.notificationPages + audit.refresh.failurePages + audit.refresh.feedRequests
        + audit.refresh.transactionLookups + audit.refresh.historyPages
        + audit.refresh.statusCalls
    }

    /// The audit night's answers that were not a success (429s under the loopback limit, or a
    /// dropped connection's retry): asked again by the client, so beside the floor, not in it.
    public var unsuccessfulAnswers: Int {
      audit.served.statuses.values.reduce(0) { total, statuses in
        total + statuses.filter { !(200..<300).contains($0.key) }.values.reduce(0, +)
      }
    }

    /// The report for people.
    public var text: String {
      func count(_ value: Int) -> String { value.formatted(.number) }
      func seconds(_ value: Double) -> String {
        value < 120
          ? String(format: "%.1f s", value)
          : value < 7200
            ? String(format: "%.1f min", value / 60) : String(format: "%.1f h", value / 3600)
      }
      func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "0 %" : String(format: "%.2f %%", 100 * Double(part) / Double(whole))
      }
      let night0 = migration.served.totalRequests
      let night1 = audit.served.totalRequests
      let perMillion = customers == 0 ? 0 : 1_000_000 / Double(customers)
      let due = audit.refresh.dueByReason.sorted { $0.key < $1.key }.map {
        "\($0.key.replacingOccurrences(of: "_", with: " ")) \(count($0.value))"
      }.joined(separator: ", ")
      var lines: [String] = []
      lines.append(
        "bench audit: \(count(settings.accounts)) accounts (seed \(settings.seed)), "
          + "\(count(customers)) customers; the audit \(settings.days) day(s) after the "
          + "migration; limit \(settings.rateLimit.formatted(.number))/s per endpoint on "
          + "loopback, \(settings.latencyMilliseconds) ms latency")
      lines.append(
        "night 0 (migrate: full backfill): \(count(night0)) requests ("
          + endpoints(migration) + ") in \(seconds(migration.backfillSeconds)) on loopback")
      lines.append(
        "night \(settings.days) (audit): \(count(changedCustomers)) of \(count(customers)) "
          + "customers changed in the world (\(percent(changedCustomers, customers))); due "
          + "\(count(audit.refresh.due)) (\(due)); refreshed \(count(audit.refresh.refreshed)), "
          + "still due \(count(audit.refresh.stillDue))")
      lines.append(
        "  requests: \(count(night1)) (" + endpoints(audit) + ") in "
          + "\(seconds(audit.refreshSeconds)) on loopback")
      lines.append(
        "  floor: \(count(audit.refresh.notificationPages)) notification pages + "
          + "\(count(audit.refresh.failurePages)) pending-delivery pages + "
          + "\(count(audit.refresh.feedRequests)) feed-proof requests + "
          + (audit.refresh.transactionLookups > 0
            ? "\(count(audit.refresh.transactionLookups)) transaction look-ups + " : "")
          + "\(count(audit.refresh.historyPages)) history pages + "
          + "\(count(audit.refresh.statusCalls)) status calls = \(count(floor)); "
          + (unsuccessfulAnswers > 0
            ? "\(count(unsuccessfulAnswers)) answer(s) were not a success and were asked again; "
            : "")
          + "successful requests equal the floor (target the floor): "
          + "\(night1 - unsuccessfulAnswers == floor ? "met" : "NOT met")")
      lines.append(
        "  against a full re-backfill: \(count(night1)) vs \(count(night0)) requests "
          + "(\(percent(night1, night0)))")
      lines.append(
        "  at Apple's 50/s per endpoint: the audit \(seconds(audit.secondsAtApplesRate)), a "
          + "re-backfill \(seconds(migration.secondsAtApplesRate)); per million customers: "
          + "\(seconds(audit.secondsAtApplesRate * perMillion)) vs "
          + "\(seconds(migration.secondsAtApplesRate * perMillion))")
      lines.append(
        "  categories equal the oracle's: \(count(audit.accounts - audit.mismatches)) of "
          + "\(count(audit.accounts)) accounts (migration night: "
          + "\(count(migration.accounts - migration.mismatches)) of \(count(migration.accounts)))")
      let swept = noFeed.refresh.feeds.reduce(0) { $0 + $1.swept }
      let sweep = noFeed.served.totalRequests
      let states = Set(noFeed.refresh.feeds.map(\.state.rawValue)).sorted().joined(separator: ", ")
      lines.append(
        "night \(settings.days) without a change feed (no notification URL; feed \(states)): "
          + "every customer whose data is older than the bound swept: \(count(swept)) customers, "
          + "\(count(sweep)) requests (" + endpoints(noFeed) + ") in "
          + "\(seconds(noFeed.refreshSeconds)) on loopback; still due "
          + "\(count(noFeed.refresh.stillDue)); categories equal the oracle's: "
          + "\(count(noFeed.accounts - noFeed.mismatches)) of \(count(noFeed.accounts))")
      // At the default bound of three days a third of the customers are older than it each
      // night, in the steady state.
      let perNight = Double(sweep) / 3
      let busiest = Double(noFeed.requestsByEndpoint.values.max() ?? 0) / 3
      lines.append(
        "  per night at --max-data-age 3d (a third of the customers): about "
          + "\(count(Int(perNight.rounded()))) requests; per million customers "
          + "\(count(Int((perNight * perMillion).rounded()))) requests: "
          + "\(seconds(busiest * perMillion / (AuditBenchmark.appleRequestsPerSecond / 2))) at the "
          + "audit's default rate share (25/s per endpoint), "
          + "\(seconds(busiest * perMillion / AuditBenchmark.appleRequestsPerSecond)) at Apple's "
          + "whole 50/s")
      return lines.joined(separator: "\n")
    }

    private func endpoints(_ night: Night) -> String {
      night.requestsByEndpoint.sorted { $0.key < $1.key }.map {
        "\($0.key) \($0.value.formatted(.number))"
      }.joined(separator: ", ")
    }
  }

  /// Runs the benchmark.
  ///
  /// - Parameters:
  ///   - settings: what to measure.
  ///   - observer: the runs' stage progress.
  ///   - log: receives progress lines.
  /// - Returns: the figures.
  /// - Throws: when the world cannot be made, a simulator cannot start, or a run fails.
  public static func run(
    _ settings: Settings, observer: (any ProgressObserver)? = nil, log: (String) -> Void
  ) async throws -> Report {
    let files = FileManager.default
    let scratch =
      settings.directory
      ?? files.temporaryDirectory.appendingPathComponent(
        "receipt-migrate-bench-audit-\(UUID().uuidString)"
      ).path
    try files.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer {
      if settings.directory == nil { try? files.removeItem(atPath: scratch) }
    }
    let world = "\(scratch)/world-\(settings.accounts)-seed\(settings.seed)-days\(settings.days)"
    if !files.fileExists(atPath: "\(world)/\(GeneratedArchive.FileName.expected)") {
      log(
        "generating a world of \(settings.accounts) accounts, \(settings.days) day(s) past its clock"
      )
      try child(
        settings,
        [
          "simulator", "generate", "--accounts", String(settings.accounts), "--seed",
          String(settings.seed), "--days-after", String(settings.days), "--out", world,
        ])
    }
    let storePath = "\(scratch)/store.sqlite"
    for stale in [storePath, storePath + "-wal", storePath + "-shm", storePath + ".lock"]
    where files.fileExists(atPath: stale) {
      try files.removeItem(atPath: stale)
    }
    let worldValue = try SimulatorSetup.prepare(worldDirectory: world).world
    let migration = try await night(
      0, world: world, worldValue: worldValue, storePath: storePath, scratch: scratch,
      settings: settings, observer: observer, log: log)
    // The migrated store, copied for the night without a change feed.
    let noFeedStore = "\(scratch)/store-no-feed.sqlite"
    for suffix in ["", "-wal", "-shm"] {
      if files.fileExists(atPath: noFeedStore + suffix) {
        try files.removeItem(atPath: noFeedStore + suffix)
      }
      if files.fileExists(atPath: storePath + suffix) {
        try files.copyItem(atPath: storePath + suffix, toPath: noFeedStore + suffix)
      }
    }
    let audit = try await night(
      settings.days, world: world, worldValue: worldValue, storePath: storePath,
      scratch: scratch, settings: settings, observer: observer, log: log)
    // Data of night 0 is a whole number of days old: a bound an hour shorter sweeps it all.
    let noFeed = try await night(
      settings.days, world: world, worldValue: worldValue, storePath: noFeedStore,
      scratch: scratch, settings: settings, observer: observer, log: log,
      simulatorArguments: ["--notification-url", "none"],
      maxDataAge: Int64(settings.days) * Timestamp.millisecondsPerDay
        - Timestamp.millisecondsPerHour)
    let stored = try storedCustomerKeys(storePath)
    let changed = changedCustomers(
      worldValue, from: migration.clock, to: audit.clock
    ).intersection(stored)
    return Report(
      settings: settings, customers: stored.count, changedCustomers: changed.count,
      migration: migration, audit: audit, noFeed: noFeed)
  }

  // MARK: - A night

  private static func night(
    _ number: Int, world: String, worldValue: World, storePath: String, scratch: String,
    settings: Settings, observer: (any ProgressObserver)?, log: (String) -> Void,
    simulatorArguments: [String] = [], maxDataAge: Int64? = nil
  ) async throws -> Night {
    let clock = worldValue.now.adding(
      milliseconds: Int64(number) * Timestamp.millisecondsPerDay)
    let table = "\(scratch)/table-night\(number).csv"
    let expected = "\(scratch)/expected-night\(number).csv"
    try child(
      settings,
      [
        "simulator", "expected", "--world", world, "--at", clock.iso8601, "--table", table,
        "--out", expected,
      ])
    log("night \(number): serving the world at \(clock.iso8601) in a child process")
    var backfill = BackfillBenchmark.Settings(executable: settings.executable)
    backfill.rateLimit = settings.rateLimit
    backfill.latencyMilliseconds = settings.latencyMilliseconds
    let simulator = try SimulatorProcess.start(
      executable: settings.executable,
      arguments: BackfillBenchmark.simulatorArguments(world: world, backfill) + [
        "--clock", clock.iso8601,
      ] + simulatorArguments)
    let served = try LookupSettings.read(from: simulator.clientVariables)
    var configuration = served.configuration
    // History and status at the bench's limit, as the simulator enforces them; the notification
    // history keeps Apple's limits, which the simulator keeps too.
    configuration.rateLimits = BackfillBenchmark.clientLimits(settings.rateLimit)
    configuration.maximumConcurrentRequests = settings.concurrency
    let client = try AppStoreServerAPIClient(configuration: configuration, notice: { _ in })
    let runner = MigrationRunner(
      storePath: storePath,
      appStore: ConnectedAppStore(
        client: client,
        source: AppStoreSource(
          isSimulated: true,
          description: "simulated App Store (bench world, \(settings.accounts) accounts, night "
            + "\(number), in a child process)",
          environment: "auto"),
        identity: "simulator bench-audit-\(settings.accounts)-\(settings.seed)-\(settings.days)",
        clock: served.clock),
      options: MigrationRunOptions(
        legacyPaths: ["\(world)/\(GeneratedArchive.FileName.receipts)"],
        reader: .init(
          receiptVerifier: try CertificateChainVerifier(trustedRoots: configuration.trustedRoots)),
        catalogPath: "\(world)/\(GeneratedArchive.FileName.products)",
        currentEntitlementsPath: table, reportsDirectory: "\(scratch)/reports", asOf: nil,
        backfill: BackfillOptions(concurrency: settings.concurrency),
        refresh: RefreshOptions(
          concurrency: settings.concurrency,
          maxDataAgeMilliseconds: maxDataAge ?? RefreshOptions.defaultMaxDataAgeMilliseconds),
        runId: "night-\(number)\(simulatorArguments.isEmpty ? "" : "-no-feed")"),
      toolVersion: "bench", now: SystemTime.now, observer: observer)
    let wall = ContinuousClock()
    let began = wall.now
    let outcome = try await runner.run()
    let seconds = began.duration(to: wall.now).inSeconds
    let answered = try simulator.stop()
    var stages: [String: Double] = [:]
    for stage in outcome.run.summary.stageDurations {
      stages[stage.stage] = Double(stage.milliseconds) / 1000
    }
    let oracle = try expectations(expected)
    let comparisons = try outcome.run.comparisons()
    let mismatches = comparisons.count { comparison in
      let want = oracle[comparison.accountId]
      return want?.category != comparison.category.rawValue
        || want?.table != (comparison.tableCategory?.rawValue ?? "")
    }
    return Night(
      clock: clock, seconds: seconds,
      backfillSeconds: (stages["backfill"] ?? 0) + (stages["refresh"] ?? 0),
      refreshSeconds: stages["refresh"] ?? 0, served: answered, refresh: outcome.refresh,
      mismatches: mismatches, accounts: comparisons.count,
      stale: outcome.run.staleAccounts)
  }

  // MARK: - Helpers

  private static func child(_ settings: Settings, _ arguments: [String]) throws {
    let outcome = try ChildProcess.run(settings.executable, arguments)
    guard outcome.status == 0 else {
      throw SimulatorProcess.Failure(
        description: "\(arguments.prefix(2).joined(separator: " ")) exited with status "
          + "\(outcome.status); run \(settings.executable) \(arguments.joined(separator: " ")) "
          + "to see why")
    }
  }

  private static func expectations(_ path: String) throws -> [String: (
    category: String, table: String
  )] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var rows: [String: (String, String)] = [:]
    for line in text.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      if fields.count >= 3 { rows[fields[0]] = (fields[1], fields[2]) }
    }
    return rows
  }

  private static func storedCustomerKeys(_ path: String) throws -> Set<String> {
    let store = try MigrationStore(path: path, now: { SystemTime.now().millisecondsSince1970 })
    defer { try? store.close() }
    return Set(try store.customers().map(\.key))
  }

  /// The customers (by `appTransactionId`) whose dated facts changed in `(from, to]`.
  static func changedCustomers(_ world: World, from: Timestamp, to: Timestamp) -> Set<String> {
    var changed: Set<String> = []
    for customer in world.customers {
      let transactions = customer.transactions.contains {
        let modified = $0.lastModified(at: to)
        return modified > from && modified <= to
      }
      let renewals = customer.renewals.contains { timeline in
        timeline.events.contains { $0.at > from && $0.at <= to }
      }
      if transactions || renewals { changed.insert(customer.appTransactionId) }
    }
    return changed
  }
}
