import AppStoreSimulator
import ArgumentParsing
import Chronology
import Foundation
import LegacyReceipts
import MigrationPipeline
import MigrationReports
import Terminal

/// `receipt-migrate migrate`: the main job.
struct MigrateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "migrate",
    abstract: "Ingest legacy data, backfill every account from the App Store, compare, report.",
    discussion: """
      Runs ingest → backfill → refresh → compare → report over one database. Ingest is skipped \
      when the same inputs were ingested already, the backfill sends no request for customers \
      that are complete, and the refresh asks only what may have changed since (see audit), so \
      running it again is cheap and a killed run resumes where it stopped. \
      With App Store credentials configured (ASC_ISSUER_ID, ASC_KEY_ID, ASC_PRIVATE_KEY_PATH or \
      ASC_PRIVATE_KEY, \
      APP_BUNDLE_ID, APP_STORE_ROOT_CERTIFICATES, or --config) it talks to Apple; with none it \
      runs against the built-in simulator seeded from --world (Legacy/sample), whose legacy \
      data, catalogue and entitlement table are the defaults, and says so. Exits 0 when done, \
      1 when --fail-on is crossed, 3 on a configuration or authentication error, 4 when \
      accounts were left unresolved or inputs could not be used.
      """
  )

  @Option(
    help: ArgumentHelp(
      "Legacy inputs: NDJSON files, directories of .json responses, CSV id lists (repeat for "
        + "several; default with the simulator: <world>/receipts.ndjson).", valueName: "path"))
  var legacy: [String] = []

  @OptionGroup var comparison: ComparisonOptions
  @OptionGroup var refresh: RefreshFlags
  @OptionGroup var store: StoreOptions
  @OptionGroup var report: ReportFlags
  @OptionGroup var backfill: BackfillFlags
  @OptionGroup var appStore: AppStoreOptions
  @OptionGroup var alerts: AlertFlags
  @OptionGroup var rate: RateShareFlag

  @Option(
    help: ArgumentHelp(
      "A root certificate to check raw receipts' signatures against (PEM or DER); repeat for "
        + "several (default with the simulator: <world>/signing/root.pem).", valueName: "cert"))
  var receiptRoot: [String] = []

  mutating func validate() throws {
    _ = try rate.share(default: RateShareFlag.migrationDefault)
    try backfill.check()
    try refresh.check()
    try alerts.check()
    _ = try comparison.failOnPolicy()
  }

  func run() async throws {
    // One run per store: a second process refuses at once (exit 75) or, with --wait, waits.
    let lock = try store.lock(command: "migrate")
    defer { lock.release() }
    let storePath = store.path()
    let connection = try appStore.connect(
      try appStore.choice(config: store.config), storePath: storePath,
      rateShare: try rate.resolved(
        default: RateShareFlag.migrationDefault, command: "migrate", storePath: storePath))
    defer { connection.stop() }
    // With --quiet a clean night prints nothing at all, so cron mails only what needs a person.
    if !alerts.quiet { connection.announce(requested: appStore.simulatorRequested) }
    var options = try RunDefaults.options(
      command: "migrate", legacy: legacy, requireLegacy: true, comparison: comparison,
      refresh: refresh, backfill: backfill, report: report, receiptRoots: receiptRoot,
      connection: connection, storePath: storePath)
    let (completion, alertInputs) = try RunCompletion.resolve(
      alerts, command: "migrate", storePath: storePath)
    options.usedInputs += alertInputs
    let runner = MigrationRunner(
      storePath: storePath, appStore: connection.connected, options: options,
      toolVersion: ToolVersion.current, now: WallClock.now,
      observer: alerts.quiet ? nil : TerminalProgressObserver())
    let reportsDirectory = options.reportsDirectory
    let outcome = try await StopSignals.run {
      try await RunFailures.translating {
        try await runner.run(delivering: {
          try await completion.deliver(
            $0, storePath: storePath, reportsDirectory: reportsDirectory)
        })
      }
    }
    try RunFailures.finish(outcome.run)
  }
}
