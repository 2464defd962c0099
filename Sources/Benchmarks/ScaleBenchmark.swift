import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import CryptoSupport
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore

/// `bench scale`: how compare and report grow with the number of accounts.
///
/// It builds a store of N accounts without HTTP, then times `compare` and `report` — the real
/// commands, each in a child process of its own, so their peak memory is theirs alone.
///
/// The store is built honestly but cheaply: the world is generated in parts of at most
/// ``Settings/part`` accounts, numbered so that the parts' account and transaction ids never
/// meet; each part's legacy files are ingested by the real ingest stage, and its customers are
/// backfilled by the real backfill stage and client — every signed value verified and stored
/// through the store layer — against the simulator answering in this process
/// (``InProcessSimulator``), without sockets, rate limits or latency. Memory while building is
/// bounded by one part, not by N.
public enum ScaleBenchmark {
  /// What to measure.
  public struct Settings: Sendable {
    /// The `receipt-migrate` binary whose `compare` and `report` are measured.
    public var executable: String
    /// How many team accounts the store holds.
    public var accounts = 100_000
    /// The seed of every part.
    public var seed: UInt64 = 1
    /// The most accounts generated at once.
    public var part = 20_000
    /// A scratch directory to use and keep (store, table, reports), or `nil` for a temporary
    /// one removed afterwards. A store built there before for the same accounts and seed is
    /// used again.
    public var directory: String?
    /// Only build the store (what the benchmark runs in a child process of its own).
    public var buildOnly = false

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
  ///   - log: receives progress lines.
  /// - Returns: the figures.
  /// - Throws: when a part cannot be generated or stored, or a command fails.
  public static func run(_ settings: Settings, log: (String) -> Void) async throws -> Report {
    let files = FileManager.default
    let scratch =
      settings.directory
      ?? files.temporaryDirectory.appendingPathComponent(
        "receipt-migrate-bench-scale-\(UUID().uuidString)"
      ).path
    try files.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer {
      if settings.directory == nil { try? files.removeItem(atPath: scratch) }
    }
    let built = "\(scratch)/store-\(settings.accounts)-seed\(settings.seed)"
    let layout = Layout(directory: built)
    var buildSeconds: Double?
    if settings.buildOnly {
      if !files.fileExists(atPath: layout.complete) {
        try await build(layout, settings: settings, log: log)
      }
      return Report(
        accounts: settings.accounts, buildSeconds: nil, compare: nil, report: nil,
        storeBytes: Self.size(of: layout.store))
    }
    if files.fileExists(atPath: layout.complete) {
      log("using the store built before in \(built)")
    } else {
      // Built in a child process: this one stays small, so the commands it starts next are
      // measured alone (a child starts out sharing its parent's memory, and Linux counts that
      // memory's high-water mark as the child's peak).
      let child = try ChildProcess.run(
        settings.executable,
        [
          "bench", "scale", "--build-only", "--accounts", String(settings.accounts), "--seed",
          String(settings.seed), "--part", String(settings.part), "--keep", scratch,
        ], showsErrors: true)
      guard child.status == 0, files.fileExists(atPath: layout.complete) else {
        throw SimulatorProcess.Failure(
          description: "building the store exited with status \(child.status)")
      }
      buildSeconds = child.seconds
    }
    let asOf = try String(contentsOfFile: layout.complete, encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)

    let reports = "\(scratch)/reports"
    if files.fileExists(atPath: reports) { try files.removeItem(atPath: reports) }
    log("compare: \(settings.executable) compare --db \(layout.store) …")
    let compare = try command(
      settings.executable,
      [
        "compare", "--db", layout.store, "--catalog", layout.products, "--current-entitlements",
        layout.table, "--as-of", asOf,
      ])
    log("report: \(settings.executable) report --db \(layout.store) --reports \(reports)")
    let report = try command(
      settings.executable, ["report", "--db", layout.store, "--reports", reports])
    return Report(
      accounts: settings.accounts, buildSeconds: buildSeconds, compare: compare, report: report,
      storeBytes: Self.size(of: layout.store))
  }

  /// Where a built store's files are.
  struct Layout {
    var directory: String
    var store: String { "\(directory)/store.sqlite" }
    var table: String { "\(directory)/current-entitlements.csv" }
    var products: String { "\(directory)/products.csv" }
    /// Written last, holding the comparison instant: the store is complete when it exists.
    var complete: String { "\(directory)/complete" }
  }

  // MARK: - Building the store

  private static func build(_ layout: Layout, settings: Settings, log: (String) -> Void)
    async throws
  {
    let files = FileManager.default
    if files.fileExists(atPath: layout.directory) { try files.removeItem(atPath: layout.directory) }
    try files.createDirectory(atPath: layout.directory, withIntermediateDirectories: true)
    var numbering = WorldNumbering()
    var table = TableAppender(path: layout.table)
    let signing = "\(layout.directory)/signing"
    var asOf: Timestamp?
    var part = 0
    while numbering.firstAccount < settings.accounts {
      let count = min(settings.part, settings.accounts - numbering.firstAccount)
      log(
        "part \(part + 1): accounts \(numbering.firstAccount + 1)–\(numbering.firstAccount + count)"
          + " of \(settings.accounts): generate, ingest, backfill")
      var configuration = GeneratorConfiguration()
      configuration.numbering = numbering
      let world = WorldGenerator(configuration: configuration).generate(
        accounts: count, seed: settings.seed)
      let directory = "\(layout.directory)/part"
      if files.fileExists(atPath: directory) { try files.removeItem(atPath: directory) }
      try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
      // Every part signs with the first part's chain, so one root verifies the whole store.
      if files.fileExists(atPath: signing) {
        try files.copyItem(
          atPath: signing, toPath: "\(directory)/\(SimulatorSetup.signingDirectoryName)")
      }
      _ = try GeneratedArchive(world: world).write(to: directory)
      let setup = try SimulatorSetup.prepare(worldDirectory: directory)
      if !files.fileExists(atPath: signing) {
        try files.copyItem(atPath: setup.signingDirectory, toPath: signing)
        try files.copyItem(
          atPath: "\(directory)/\(GeneratedArchive.FileName.products)", toPath: layout.products)
      }
      try table.append(contentsOf: "\(directory)/\(GeneratedArchive.FileName.currentEntitlements)")
      try await backfill(part: directory, setup: setup, store: layout.store)
      asOf = world.now
      numbering.firstAccount += count
      numbering.firstCustomer += world.customers.count
      try files.removeItem(atPath: directory)
      part += 1
    }
    try ((asOf ?? SystemTime.now()).iso8601 + "\n").write(
      toFile: layout.complete, atomically: true, encoding: .utf8)
  }

  /// Ingests one part's legacy files and backfills its customers from the simulator in this
  /// process.
  private static func backfill(part directory: String, setup: SimulatorSetup, store: String)
    async throws
  {
    var simulator = setup.configuration(now: SystemTime.now)
    simulator.rateLimits = .off
    let transport = try InProcessSimulator(configuration: simulator)
    var configuration = ClientConfiguration(
      credentials: setup.testKey.credentials, trustedRoots: [setup.chain.root.certificate],
      appAppleId: setup.world.appAppleId,
      baseURLOverrides: InProcessSimulator.baseURLOverrides)
    let limits = Dictionary(uniqueKeysWithValues: Endpoint.allCases.map { ($0, 1_000_000.0) })
    configuration.rateLimits = RateLimits(production: limits, sandboxShare: 1)
    let client = try AppStoreServerAPIClient(
      configuration: configuration, transport: transport, notice: { _ in })
    let runner = MigrationRunner(
      storePath: store,
      appStore: ConnectedAppStore(
        client: client,
        source: AppStoreSource(
          isSimulated: true, description: "simulated App Store (bench scale, in this process)",
          environment: "auto"),
        identity: "simulator bench-scale", clock: setup.world.now),
      options: MigrationRunOptions(
        legacyPaths: ["\(directory)/\(GeneratedArchive.FileName.receipts)"],
        reader: .init(
          receiptVerifier: try CertificateChainVerifier(
            trustedRoots: [setup.chain.root.certificate])),
        catalogPath: "\(directory)/\(GeneratedArchive.FileName.products)",
        reportsDirectory: "\(directory)/reports", asOf: setup.world.now,
        backfill: BackfillOptions(concurrency: 64)),
      toolVersion: "bench", now: SystemTime.now)
    _ = try runner.ingest()
    _ = try await runner.backfill()
  }

  private static func command(_ executable: String, _ arguments: [String]) throws
    -> ChildProcess.Outcome
  {
    let outcome = try ChildProcess.run(executable, arguments)
    // compare exits 4 when accounts are unresolved, which a generated world may hold.
    guard outcome.status == 0 || outcome.status == 4 else {
      throw SimulatorProcess.Failure(
        description: "\(arguments[0]) exited with status \(outcome.status); run "
          + "\(executable) \(arguments.joined(separator: " ")) to see why")
    }
    return outcome
  }

  private static func size(of path: String) -> Int64 {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
  }
}

/// Appends the rows of each part's team table to one file, with the header once.
private struct TableAppender {
  let path: String
  private var wroteHeader = false

  init(path: String) {
    self.path = path
  }

  mutating func append(contentsOf part: String) throws {
    let text = try String(contentsOfFile: part, encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
    if wroteHeader { lines.removeFirst() }
    guard !lines.isEmpty else { return }
    let chunk = lines.joined(separator: "\n") + "\n"
    if !wroteHeader {
      try chunk.write(toFile: path, atomically: false, encoding: .utf8)
      wroteHeader = true
      return
    }
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
    defer { try? handle.close() }
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(chunk.utf8))
  }
}
