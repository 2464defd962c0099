import ArgumentParsing
import Chronology
import MigrationPipeline
import MigrationReports
import Terminal

/// `receipt-migrate backfill`: the backfill stage alone.
struct BackfillCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "backfill",
    abstract: "Fetch every ingested account's history and statuses from the App Store.",
    discussion: """
      For every ingested id: finds its customer, walks the customer's whole transaction history \
      (v2, ascending, all pages) and fetches all subscription statuses, once per customer. \
      Every signed value is verified and stored with its revision token. Resumable: rerun it \
      after an interruption and it finishes the job. Without App Store credentials it talks to \
      the built-in simulator (--world). Exits 0 when every id was resolved, 3 on a \
      configuration or authentication error, 4 when some ids failed after retries.
      """
  )

  @Flag(help: "Print the summary as one JSON object.")
  var json = false

  @OptionGroup var store: StoreOptions
  @OptionGroup var backfill: BackfillFlags
  @OptionGroup var appStore: AppStoreOptions
  @OptionGroup var rate: RateShareFlag

  mutating func validate() throws {
    _ = try rate.share(default: RateShareFlag.migrationDefault)
    try backfill.check()
  }

  func run() async throws {
    // One run per store: a second process refuses at once (exit 75) or, with --wait, waits.
    let lock = try store.lock(command: "backfill")
    defer { lock.release() }
    let storePath = store.path()
    let connection = try appStore.connectAndAnnounce(
      config: store.config, storePath: storePath,
      rateShare: try rate.resolved(
        default: RateShareFlag.migrationDefault, command: "backfill", storePath: storePath))
    defer { connection.stop() }
    let runner = MigrationRunner(
      storePath: storePath, appStore: connection.connected,
      options: MigrationRunOptions(
        legacyPaths: [], reportsDirectory: "", asOf: WallClock.now(),
        backfill: BackfillOptions(
          concurrency: backfill.concurrency, fetchAppTransactions: backfill.appTransactions,
          environment: connection.environment)),
      toolVersion: ToolVersion.current, now: WallClock.now, observer: TerminalProgressObserver())
    let summary = try await StopSignals.run {
      try await RunFailures.translating { try await runner.backfill() }
    }
    print(
      json
        ? BackfillSummaryRenderer.json(summary, storePath: storePath)
        : BackfillSummaryRenderer.text(summary, storePath: storePath), terminator: "")
    let failedOrders = summary.orderOutcomes["failed"] ?? 0
    if summary.failedIds > 0 || failedOrders > 0 {
      throw ToolFailure.incomplete(
        "\(summary.failedIds) id(s) and \(failedOrders) order id(s) failed after retries; run "
          + "backfill again to retry them.")
    }
  }
}
