import ArgumentParsing
import MigrationPipeline
import MigrationReports
import Terminal

/// `receipt-migrate report`: regenerates a run's report from the store, without the network.
struct ReportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Write a run's report again from the store, without the network.",
    discussion: """
      Recomputes every account's comparison with the run's own instant, catalogue and \
      entitlement table, and writes report.html, summary.md, discrepancies.csv, \
      discrepancies.ndjson and run.json into <reports>/<run id>/, pointing <reports>/latest at \
      it. When the store changed since the run (a later backfill), the report shows the \
      accounts as they classify now and the command says how many changed. Exits 0, or 3 \
      when there is no such run.
      """
  )

  @Option(help: ArgumentHelp("The run (default: the most recent).", valueName: "id"))
  var run: String?

  @OptionGroup var report: ReportFlags
  @OptionGroup var store: StoreOptions

  func run() async throws {
    let storePath = store.path()
    let database = try StoreOptions.open(storePath, readOnly: true)
    defer { try? database.close() }
    let written: (directory: String, changed: [String], summary: RunSummary) =
      try await RunFailures.translating {
        let stored = try StoredRun.load(from: database, id: run)
        // Where reports go and whether they are redacted: the flags, else the store's recipe.
        let recipe = try StoreRecipe.load(from: database)
        let reports =
          report.reports.map(MigrationRunner.absolutePath) ?? recipe[.reports]?.text
          ?? ReportFlags.defaultReports
        let redact = report.redact || recipe[.redact]?.flag == true
        let options = MigrationRunOptions(
          legacyPaths: [], reportsDirectory: reports, asOf: stored.recipe.asOf,
          redactionSalt: try ReportFlags.redactionSalt(redact: redact, storePath: storePath))
        // One pass when every account still classifies as the run recorded, a chunk at a time;
        // otherwise every account is classified again and the report written in that order.
        let written = try stored.writeReport(
          store: database, reportsDirectory: reports,
          options: try options.reportOptions(), observer: TerminalProgressObserver())
        return (written.directory, written.changed, stored.summary)
      }
    // The report is committed: the run is now a baseline for later runs (a run killed while it
    // wrote its own report was not).
    let writable = try StoreOptions.open(storePath)
    defer { try? writable.close() }
    try writable.runLedger.markReported(
      written.summary.runId, directory: MigrationRunner.absolutePath(written.directory),
      at: WallClock.now().millisecondsSince1970)
    print("Report of run \(written.summary.runId): \(written.directory)/report.html")
    if !written.changed.isEmpty {
      StandardError.write(
        "\(written.changed.count) account(s) classify differently now than when the run was "
          + "made (the store changed since, for example by a later backfill); the report shows "
          + "them as they classify now.\n")
    }
  }
}
