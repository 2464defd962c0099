import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import CryptoSupport
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore

#if canImport(Glibc)
  import Glibc
#endif

/// `bench backfill`: the main job (`migrate`: ingest → backfill → compare → report) over a
/// generated world served by the simulator with a rate limit and added latency, measured for
/// throughput against the limit, requests per customer against the floor, 429s, peak memory and
/// the time to compare and report.
///
/// Three processes, so that each figure is the tool's own: `simulator generate` writes the world
/// (timed, not part of the run), `simulator serve` answers in a child process (its signing
/// cache holds every value it ever signed, hundreds of megabytes for a large world, which is no
/// part of the tool), and the run itself happens in this process, whose peak resident memory is
/// then the tool's.
public enum BackfillBenchmark {
  /// What to measure.
  public struct Settings: Sendable {
    /// The `receipt-migrate` binary that generates the world and serves it.
    public var executable: String
    /// How many team accounts the generated world has.
    public var accounts = 20_000
    /// The world's seed.
    public var seed: UInt64 = 1
    /// Requests per second per endpoint and environment, enforced by the simulator and paced
    /// to by the client; history and status, production and sandbox alike.
    public var rateLimit: Double = 400
    /// Latency the simulator adds to every answer, in milliseconds.
    public var latencyMilliseconds = 20
    /// Groups of ids the backfill works on at once, and the client's most requests in flight.
    ///
    /// A group has at most one request outstanding, so with as many permits as groups a request
    /// never waits for a permit after its pacing slot has come (a slot missed is lost for good).
    /// By Little's law, history and status at 400/s each with ~25 ms per request need about
    /// 20 requests in flight; 64 leaves room for the pacer's queue and for slower answers, and
    /// stays well inside the simulator's and URLSession's 64 connections per host.
    public var concurrency = 64
    /// The HTTP stack the client sends with; the socket client by default, URLSession to
    /// measure the difference.
    public var client: HTTPClientChoice = .sockets
    /// A scratch directory to use and keep (world, store, reports), or `nil` for a temporary
    /// one removed afterwards. A world generated there before with the same accounts and seed
    /// is used again.
    public var directory: String?

    /// Settings with the defaults above.
    ///
    /// - Parameter executable: the `receipt-migrate` binary.
    public init(executable: String) {
      self.executable = executable
    }
  }

  /// Runs the benchmark.
  ///
  /// - Parameters:
  ///   - settings: what to measure.
  ///   - observer: the run's stage progress.
  ///   - log: receives progress lines.
  /// - Returns: the figures.
  /// - Throws: when the world cannot be generated, the simulator cannot start, or the run fails.
  public static func run(
    _ settings: Settings, observer: (any ProgressObserver)? = nil, log: (String) -> Void
  ) async throws -> Report {
    let files = FileManager.default
    let scratch =
      settings.directory
      ?? files.temporaryDirectory.appendingPathComponent(
        "receipt-migrate-bench-backfill-\(UUID().uuidString)"
      ).path
    try files.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer {
      if settings.directory == nil { try? files.removeItem(atPath: scratch) }
    }

    let world = "\(scratch)/world-\(settings.accounts)-seed\(settings.seed)"
    let generation = try generateWorld(at: world, settings: settings, log: log)

    log("starting the simulator in a child process")
    // Should the run fail, the simulator is killed when `simulator` goes away.
    let simulator = try SimulatorProcess.start(
      executable: settings.executable, arguments: simulatorArguments(world: world, settings))

    let servedSettings = try LookupSettings.read(from: simulator.clientVariables)
    var configuration = servedSettings.configuration
    configuration.rateLimits = clientLimits(settings.rateLimit)
    configuration.maximumConcurrentRequests = settings.concurrency
    let client = try AppStoreServerAPIClient(
      configuration: configuration,
      transport: settings.client.makeTransport(), notice: { _ in })
    let stageCPU = StageCPUObserver(stage: BackfillStage.name, forwardingTo: observer)

    let storePath = "\(scratch)/store.sqlite"
    let reports = "\(scratch)/reports"
    for stale in [storePath, storePath + "-wal", storePath + "-shm", reports]
    where files.fileExists(atPath: stale) {
      try files.removeItem(atPath: stale)
    }
    let runner = MigrationRunner(
      storePath: storePath,
      appStore: ConnectedAppStore(
        client: client,
        source: AppStoreSource(
          isSimulated: true,
          description:
            "simulated App Store (bench world, seed \(settings.seed), \(settings.accounts) "
            + "accounts, in a child process)",
          environment: "auto"),
        identity: "simulator bench-\(settings.accounts)-\(settings.seed)",
        // `simulator serve` answers as of the world's clock and says so in its banner.
        clock: servedSettings.clock),
      options: MigrationRunOptions(
        legacyPaths: ["\(world)/\(GeneratedArchive.FileName.receipts)"],
        reader: .init(
          receiptVerifier: try CertificateChainVerifier(trustedRoots: configuration.trustedRoots)),
        catalogPath: "\(world)/\(GeneratedArchive.FileName.products)",
        currentEntitlementsPath: "\(world)/\(GeneratedArchive.FileName.currentEntitlements)",
        reportsDirectory: reports,
        asOf: nil,
        backfill: BackfillOptions(concurrency: settings.concurrency)),
      toolVersion: "bench", now: SystemTime.now, observer: stageCPU)

    log("running ingest → backfill → compare → report with the \(settings.client.rawValue) client")
    // A second run in the same process counts only its own CPU.
    let usageBefore = ResourceUsage.ofThisProcess()
    let clock = ContinuousClock()
    let began = clock.now
    let outcome = try await runner.run()
    let runSeconds = began.duration(to: clock.now).inSeconds
    let usage = ResourceUsage.ofThisProcess()
    log("stopping the simulator")
    let served = try simulator.stop()
    let store = try MigrationStore(path: storePath, now: { SystemTime.now().millisecondsSince1970 })
    defer { try? store.close() }
    let floor = try BackfillRequestFloor.of(store: store)

    var stages: [String: Double] = [:]
    for stage in outcome.run.summary.stageDurations {
      stages[stage.stage] = Double(stage.milliseconds) / 1000
    }
    return Report(
      settings: settings, generation: generation,
      accounts: outcome.run.summary.inputs.accounts, runSeconds: runSeconds,
      stageSeconds: stages, backfill: outcome.backfill,
      clientCounts: outcome.backfill.counters ?? client.counters.snapshot(),
      clientTotalRequests: client.counters.snapshot().totalRequests, served: served,
      floor: floor, peakResidentBytes: usage.peakResidentBytes,
      cpuSeconds: usage.cpuSeconds - usageBefore.cpuSeconds,
      backfillCPUSeconds: stageCPU.stageCPUSeconds,
      reportDirectory: settings.directory == nil ? nil : outcome.reportDirectory)
  }

  // MARK: - Steps

  /// Generates the world with `simulator generate` in a child process, unless the directory
  /// already holds a complete one (`expected.csv` is written last).
  private static func generateWorld(
    at directory: String, settings: Settings, log: (String) -> Void
  ) throws -> Report.Generation? {
    if FileManager.default.fileExists(
      atPath: "\(directory)/\(GeneratedArchive.FileName.expected)")
    {
      log("using the world generated before in \(directory)")
      return nil
    }
    log("generating a world of \(settings.accounts) accounts (seed \(settings.seed))")
    let arguments = [
      "simulator", "generate", "--accounts", String(settings.accounts), "--seed",
      String(settings.seed), "--out", directory,
    ]
    let child = try ChildProcess.run(settings.executable, arguments)
    guard child.status == 0 else {
      throw SimulatorProcess.Failure(
        description: "simulator generate exited with status \(child.status); run "
          + "\(settings.executable) \(arguments.joined(separator: " ")) to see why")
    }
    return Report.Generation(seconds: child.seconds, peakResidentBytes: child.peakResidentBytes)
  }

  /// `simulator serve` arguments: the limit on history and status in both environments (so the
  /// sandbox's few customers are not paced at a tenth of it), the latency, no request log.
  static func simulatorArguments(world: String, _ settings: Settings) -> [String] {
    let rate = String(settings.rateLimit)
    var arguments = [
      "--world", world, "--log", "off", "--rate-limit",
      "per-second,history=\(rate),status=\(rate),sandbox:history=\(rate),sandbox:status=\(rate)",
    ]
    if settings.latencyMilliseconds > 0 {
      arguments += ["--latency", "\(settings.latencyMilliseconds)ms"]
    }
    return arguments
  }

  /// The client's limits: the same rate for history and status in both environments.
  static func clientLimits(_ rate: Double) -> RateLimits {
    let limits: [Endpoint: Double] = [.transactionHistory: rate, .subscriptionStatuses: rate]
    return RateLimits(production: limits, sandbox: limits)
  }
}
