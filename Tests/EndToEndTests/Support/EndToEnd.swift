import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import CryptoSupport
import Entitlements
import Foundation
import MigrationPipeline
import MigrationStore
import Synchronization
import TestDirectories

/// Worlds, App Stores and runs for the end-to-end tests: the real pipeline, the real simulator
/// on loopback ports, real SQLite files in a temporary directory.
enum EndToEnd {
  /// The repository, located from this file.
  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// `Legacy/sample`: the world the embedded default runs against.
  static let sampleWorld = repository.appendingPathComponent("Legacy/sample").path

  private static let worlds = Mutex<[String: String]>([:])
  /// Where this process's worlds and runs go: the worlds are shared by many tests, so the
  /// directory is removed when the process exits, not when a test ends.
  private static let root: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "end-to-end-\(UUID().uuidString)")
    atexit { TemporaryDirectory.remove(EndToEnd.root) }
    return root
  }()

  /// A generated world directory (made once per process and seed).
  ///
  /// - Parameters:
  ///   - configuration: the generator's settings; `label` names them in the cache key.
  static func world(
    seed: UInt64, accounts: Int, configuration: GeneratorConfiguration = .init(),
    label: String = "default"
  ) throws -> String {
    try worlds.withLock { worlds in
      let key = "\(seed)-\(accounts)-\(label)"
      if let directory = worlds[key] { return directory }
      let directory = root.appendingPathComponent("world-\(key)").path
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
      let world = WorldGenerator(configuration: configuration).generate(
        accounts: accounts, seed: seed)
      _ = try GeneratedArchive(world: world).write(to: directory)
      worlds[key] = directory
      return directory
    }
  }

  /// A generated world whose timeline goes on `days` days past its clock, with every timeline
  /// rate multiplied by `rateScale` so that a few nights hold every kind of event (made once
  /// per process and arguments).
  ///   - tokenNamespace: when given, purchases after the clock carry the team's
  ///     `appAccountToken` derived in this namespace (see
  ///     `GeneratorConfiguration.appAccountTokenNamespace`), and every customer who never
  ///     subscribed starts a subscription in the timeline: customers who first buy after the
  ///     cut-over.
  static func timelineWorld(
    seed: UInt64, accounts: Int, days: Int, rateScale: Double, tokenNamespace: String? = nil
  ) throws -> String {
    try worlds.withLock { worlds in
      let key =
        "\(seed)-\(accounts)-\(days)-\(rateScale)" + (tokenNamespace.map { "-\($0)" } ?? "")
      if let directory = worlds[key] { return directory }
      let directory = root.appendingPathComponent("timeline-\(key)").path
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
      var configuration = GeneratorConfiguration()
      configuration.daysAfter = days
      configuration.timelineRates = TimelineRates().scaled(by: rateScale)
      configuration.appAccountTokenNamespace = tokenNamespace
      // A chance per 30 days, scaled by the timeline's length: this many is certain in a day.
      if tokenNamespace != nil { configuration.timelineRates.newSubscriberPer30Days = 30 }
      let world = WorldGenerator(configuration: configuration).generate(
        accounts: accounts, seed: seed)
      _ = try GeneratedArchive(world: world).write(to: directory)
      worlds[key] = directory
      return directory
    }
  }

  /// A night of a timeline world: the world's clock plus `night` days.
  static func night(_ night: Int, of world: String) throws -> Timestamp {
    try SimulatorSetup.prepare(worldDirectory: world).world.now.adding(
      milliseconds: Int64(night) * Timestamp.millisecondsPerDay)
  }

  /// A fresh directory for one test's store and reports; pair it with
  /// `defer { TemporaryDirectory.remove(scratch) }`, written before starting anything that uses it.
  static func scratch() throws -> URL {
    let directory = root.appendingPathComponent("run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// `expected.csv`: every account's expected category and table category.
  static func expected(world: String) throws -> [String: (
    category: String, table: String, flaws: [String]
  )] {
    let text = try String(contentsOfFile: "\(world)/expected.csv", encoding: .utf8)
    var rows: [String: (String, String, [String])] = [:]
    for line in text.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      let flaws = fields.count > 3 ? fields[3].split(separator: ";").map(String.init) : []
      rows[fields[0]] = (fields[1], fields[2], flaws)
    }
    return rows
  }

  /// Accounts whose category or table category differs from `expected.csv`, described.
  static func mismatches(_ comparisons: [AccountComparison], world: String) throws -> [String] {
    let expected = try expected(world: world)
    var problems: [String] = []
    let seen = Set(comparisons.map(\.accountId))
    for missing in Set(expected.keys).subtracting(seen).sorted() {
      problems.append("\(missing): expected but not compared")
    }
    for comparison in comparisons {
      guard let want = expected[comparison.accountId] else {
        problems.append("\(comparison.accountId): compared but not expected")
        continue
      }
      let table = comparison.tableCategory?.rawValue ?? ""
      if comparison.category.rawValue != want.category || table != want.table {
        problems.append(
          "\(comparison.accountId): expected \(want.category)/\(want.table), got "
            + "\(comparison.category.rawValue)/\(table): \(comparison.explanation)")
      }
      // A table made by one bug alone must be traced to that bug.
      if want.flaws.count == 1,
        !comparison.suspectedFlaws.map(\.rawValue).contains(want.flaws[0])
      {
        problems.append(
          "\(comparison.accountId): the table has bug \(want.flaws[0]), suspected "
            + "\(comparison.suspectedFlaws.map(\.rawValue))")
      }
    }
    return problems
  }

  /// Client rate limits far above what the simulator serves, for tests that do not test
  /// pacing.
  static let generousLimits = RateLimits(
    production: Dictionary(uniqueKeysWithValues: Endpoint.allCases.map { ($0, 5_000) }),
    sandboxShare: 1)

  /// Short retry waits, so that fault tests finish quickly.
  static let quickRetries = RetryPolicy(initialBackoff: 10, maximumBackoff: 100)

  /// The simulator for a world, and a client for it.
  struct AppStore {
    let embedded: EmbeddedAppStore
    let connected: ConnectedAppStore

    /// Starts the simulator.
    ///
    /// - Parameters:
    ///   - world: the world directory.
    ///   - clock: the world's instant, if not the world's own.
    ///   - wallClock: the simulator's wall clock (tokens, rate limits, notification times), when
    ///     not the system's.
    ///   - configure: changes to the simulator (rate limits are off unless set here).
    ///   - client: changes to the client configuration (generous limits unless set here).
    ///   - description: how reports name it; the simulator's own description (which names the
    ///     world's directory) by default.
    init(
      world: String, clock: Timestamp? = nil, wallClock: RequestPacedClock? = nil,
      configure: (inout SimulatorConfiguration) -> Void = { _ in },
      client: (inout ClientConfiguration) -> Void = { _ in }, description: String? = nil
    ) throws {
      embedded = try EmbeddedAppStore.start(
        worldDirectory: world, now: wallClock.map { $0.now } ?? SystemTime.now, clock: clock
      ) {
        $0.rateLimits = .off
        configure(&$0)
      }
      var configuration = embedded.clientConfiguration
      configuration.rateLimits = EndToEnd.generousLimits
      // Many runs share the test process, each with both ends of its loopback connections:
      // eight requests in flight per run keep the process's file descriptors in check.
      configuration.maximumConcurrentRequests = 8
      client(&configuration)
      connected = ConnectedAppStore(
        client: try AppStoreServerAPIClient(
          configuration: configuration, isStopping: StopRequest.isRequestedInCurrentTask,
          notice: { _ in }),
        source: .init(
          isSimulated: true, description: description ?? embedded.description,
          environment: "auto"),
        identity: embedded.identity, clock: embedded.clock)
    }

    func stop() { embedded.stop() }
  }

  /// The options of a run over a world's legacy files, catalogue and table, as of its clock.
  static func options(
    world: String, reports: URL, runId: String? = nil, concurrency: Int = 16
  ) throws -> MigrationRunOptions {
    let setup = try SimulatorSetup.prepare(worldDirectory: world)
    return MigrationRunOptions(
      legacyPaths: ["\(world)/receipts.ndjson"],
      reader: .init(
        receiptVerifier: try CertificateChainVerifier(trustedRoots: [setup.chain.root.certificate])),
      catalogPath: "\(world)/products.csv",
      currentEntitlementsPath: "\(world)/current-entitlements.csv",
      reportsDirectory: reports.path, asOf: setup.world.now,
      backfill: BackfillOptions(concurrency: concurrency), runId: runId)
  }

  /// A runner over a store in `scratch`.
  static func runner(
    scratch: URL, appStore: AppStore?, options: MigrationRunOptions,
    now: @escaping @Sendable () -> Timestamp = SystemTime.now
  ) -> MigrationRunner {
    MigrationRunner(
      storePath: scratch.appendingPathComponent("store.sqlite").path,
      appStore: appStore?.connected, options: options, toolVersion: "test", now: now)
  }

  /// A whole run in which every status answer carries a bad signature: each customer's history
  /// is stored but none completes, so every account with ids stays unresolved until ``heal``.
  static func runWithBadStatusSignatures(
    world: String, scratch: URL, options: MigrationRunOptions
  ) async throws -> MigrationOutcome {
    let plan = try FaultPlan.parse(faults: "status:bad-signature=1", latency: nil)
    let faulty = try AppStore(world: world) { $0.faults = plan }
    defer { faulty.stop() }
    return try await runner(scratch: scratch, appStore: faulty, options: options).run()
  }

  /// A healthy backfill of the store a run left: what changes a store since its run.
  static func heal(world: String, scratch: URL, options: MigrationRunOptions) async throws {
    let healthy = try AppStore(world: world)
    defer { healthy.stop() }
    _ = try await runner(scratch: scratch, appStore: healthy, options: options).backfill()
  }

  /// Everything the backfill stored, row by row, for comparing two stores (signatures aside:
  /// ECDSA signs with a random nonce, so the simulator's JWS differ from run to run).
  static func storedRows(_ path: String) throws -> [String] {
    let database = try SQLiteDatabase(location: .path(path), mode: .readOnly)
    defer { try? database.close() }
    var rows: [String] = []
    let queries = [
      "SELECT customer_key || '|' || environment || '|' || history_pages || '|' || history_complete || '|' || statuses_complete FROM customers ORDER BY customer_key",
      // Which of two ids of one customer is asked first (found) and which is then covered
      // is a matter of timing between concurrent groups, in any run.
      "SELECT s.original_transaction_id || '|' || replace(s.outcome, 'covered', 'found') || '|' || coalesce(s.environment, '') || '|' || coalesce(c.customer_key, '') FROM seed_outcomes s LEFT JOIN customers c ON c.id = s.customer_id ORDER BY 1",
      "SELECT a.account_id || '|' || c.customer_key FROM account_customers a JOIN customers c ON c.id = a.customer_id ORDER BY 1",
      "SELECT t.transaction_id || '|' || c.customer_key || '|' || coalesce(t.product_id, '') || '|' || coalesce(t.expires_ms, '') || '|' || coalesce(t.revocation_ms, '') FROM transactions t JOIN customers c ON c.id = t.customer_id ORDER BY 1",
      "SELECT c.customer_key || '|' || s.original_transaction_id || '|' || s.status || '|' || coalesce(s.auto_renew_status, '') FROM subscription_statuses s JOIN customers c ON c.id = s.customer_id ORDER BY 1",
    ]
    for query in queries {
      try database.forEachRow(query) { rows.append(try $0.string(at: 0)) }
    }
    return rows
  }

  /// The customers the backfill stored: which customer each id belongs to, and how many
  /// history pages its transactions fill (20 to a page, at least one). Only complete
  /// customers (history and statuses stored) are listed.
  static func storedCustomers(_ path: String) throws -> (
    byId: [String: String], pages: [String: Int]
  ) {
    let database = try SQLiteDatabase(location: .path(path), mode: .readOnly)
    defer { try? database.close() }
    var byId: [String: String] = [:]
    var pages: [String: Int] = [:]
    try database.forEachRow(
      "SELECT c.customer_key, c.walk_transaction_id, count(t.transaction_id) FROM customers c LEFT JOIN transactions t ON t.customer_id = c.id WHERE c.history_complete AND c.statuses_complete GROUP BY c.id"
    ) { row in
      let key = try row.string(at: 0)
      byId[try row.string(at: 1)] = key
      pages[key] = max(1, (try row.int(at: 2) + 19) / 20)
    }
    try database.forEachRow(
      "SELECT t.transaction_id, t.original_transaction_id, c.customer_key FROM transactions t JOIN customers c ON c.id = t.customer_id WHERE c.history_complete AND c.statuses_complete"
    ) { row in
      let key = try row.string(at: 2)
      byId[try row.string(at: 0)] = key
      if let original = try row.optionalString(at: 1) { byId[original] = key }
    }
    return (byId, pages)
  }

  /// The answers a simulator gave without an injected fault and with status 200, by customer:
  /// history pages and status answers, keyed by the customer key the path's id belongs to.
  static func cleanAnswers(
    _ log: [SimulatorRequestLogEntry], byId: [String: String]
  ) -> (history: [String: Int], statuses: [String: Int]) {
    var history: [String: Int] = [:]
    var statuses: [String: Int] = [:]
    for entry in log where entry.status == 200 && entry.fault == nil {
      let id = String(entry.path.split(separator: "/").last ?? "")
      guard let customer = byId[id] else { continue }
      switch entry.endpoint {
      case .transactionHistory?: history[customer, default: 0] += 1
      case .subscriptionStatuses?: statuses[customer, default: 0] += 1
      default: continue
      }
    }
    return (history, statuses)
  }
}
