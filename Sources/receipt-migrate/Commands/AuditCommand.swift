import AppStoreSimulator
import ArgumentParsing
import Chronology
import Foundation
import LegacyReceipts
import MigrationPipeline
import MigrationReports
import Terminal

/// `receipt-migrate audit`: the nightly consistency audit, for cron.
struct AuditCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "audit",
    abstract: "Keep the App Store side current, compare with your table, and say what changed.",
    discussion: """
      The nightly consistency audit. Ingests new legacy inputs if any are named (--legacy), \
      backfills new ids, then refreshes the App Store side at the cost of what changed: the \
      notification history since the store last read it, and the customers it names or whose \
      stored state has run out (an active subscription past its expiry, a grace period past \
      its end, billing retry) — one history call with the stored revision and one status call \
      each. Then it compares (against your entitlement table with --current-entitlements), \
      writes the report with what changed since the previous run and the notifications Apple \
      never delivered, and exits. --max-requests and --max-duration bound a night's cost: \
      customers left due are stale_app_store_data and come first the next night. Exits 0, 1 \
      when --fail-on is crossed (table:<…> and new:<…> select the team table's category and \
      accounts new to a category since the previous run), 3 on a configuration or \
      authentication error, 4 when accounts are unresolved or still stale, inputs were \
      quarantined or table rows rejected. Without App Store credentials it refuses (exit 3, \
      naming every missing setting) unless --simulated or --world DIR asks for the built-in \
      simulator: a night must never audit simulated data by accident.
      """
  )

  @Option(
    help: ArgumentHelp(
      "New legacy inputs to ingest first (repeat for several; default with the simulator: "
        + "<world>/receipts.ndjson, skipped when already ingested).", valueName: "path"))
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
    _ = try rate.share(default: RateShareFlag.auditDefault)
    try backfill.check()
    try refresh.check()
    try alerts.check()
    _ = try comparison.failOnPolicy()
  }

  func run() async throws {
    // One run per store: a second process refuses at once (exit 75) or, with --wait, waits.
    let lock = try store.lock(command: "audit")
    defer { lock.release() }
    let storePath = store.path()
    let connection = try appStore.connect(
      try appStore.choice(config: store.config, explicitSimulatorFor: "audit"),
      storePath: storePath,
      rateShare: try rate.resolved(
        default: RateShareFlag.auditDefault, command: "audit", storePath: storePath))
    defer { connection.stop() }
    // With --quiet a clean night prints nothing at all, so cron mails only what needs a person.
    if !alerts.quiet { connection.announce(requested: appStore.simulatorRequested) }
    var options = try RunDefaults.options(
      command: "audit", legacy: legacy, requireLegacy: false, comparison: comparison,
      refresh: refresh, backfill: backfill, report: report, receiptRoots: receiptRoot,
      connection: connection, storePath: storePath)
    let (completion, alertInputs) = try RunCompletion.resolve(
      alerts, command: "audit", storePath: storePath)
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
