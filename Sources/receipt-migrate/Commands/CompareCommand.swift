import ArgumentParsing
import Chronology
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore

/// `receipt-migrate compare`: the compare stage alone, without the network.
struct CompareCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "compare",
    abstract: "Classify every account from what the store holds, and record the run.",
    discussion: """
      Compares the old receipt logic with the App Store data already backfilled (and with your \
      entitlement table, if given), records the run with every account's classification, and \
      prints its headline; write its report with receipt-migrate report. No network. The \
      instant defaults to now, or for a store filled from the simulator to the simulated \
      world's clock. Exits 0, 1 when --fail-on is crossed, 4 when \
      accounts are unresolved or table rows were rejected.
      """
  )

  @OptionGroup var comparison: ComparisonOptions
  @Flag(help: "Print the run's run.json (the report's schema) instead of the summary.")
  var json = false

  @OptionGroup var store: StoreOptions

  mutating func validate() throws {
    _ = try comparison.failOnPolicy()
  }

  func run() async throws {
    // One run per store: a second process refuses at once (exit 75) or, with --wait, waits.
    let lock = try store.lock(command: "compare")
    defer { lock.release() }
    let storePath = store.path()
    // The flags, else the store's recipe: a plain compare classifies with the same catalogue
    // and team table as the run that made the store.
    let settings = try RunSettings.resolve(
      command: "compare", storePath: storePath, legacy: nil, comparison: comparison)
    let asOf = try comparison.asOf ?? defaultInstant(storePath: storePath)
    var options = MigrationRunOptions(
      legacyPaths: [], catalogPath: settings.catalog,
      currentEntitlementsPath: settings.currentEntitlements, reportsDirectory: "",
      asOf: asOf, since: comparison.since, failOn: settings.failOn, tokens: settings.tokens)
    options.command = "compare"
    options.commandLine = CommandLineScrubber.scrub(Array(CommandLine.arguments.dropFirst()))
    options.usedInputs = settings.used
    let runner = MigrationRunner(
      storePath: storePath, appStore: nil, options: options,
      toolVersion: ToolVersion.current, now: WallClock.now, observer: TerminalProgressObserver())
    let run = try await StopSignals.run {
      try await RunFailures.translating { try runner.compare() }
    }
    if json {
      // Exactly the report's run.json, so scripts read one schema wherever it comes from.
      let bytes = ReportWriter.runJSON(
        summary: run.summary, statistics: run.statistics,
        context: run.context)
      FileHandle.standardOutput.write(Data(bytes))
    } else {
      print(
        RunSummaryTerminalRenderer.render(
          summary: run.summary, statistics: run.statistics, changes: run.changes),
        terminator: "")
      print("\nWrite its report with: receipt-migrate report --run \(run.summary.runId)")
    }
    RejectedRows.print(run.rejectedTableRows)
    RejectedRows.print(run.quarantinedTokenRows)
    // Told: the run has ended (a report written with `report --run` makes it a baseline).
    try runner.end(run)
    try RunFailures.finish(run)
  }

  /// The App Store's own clock recorded with the store's data (a simulated world's), else now.
  private func defaultInstant(storePath: String) throws -> Timestamp {
    let database = try StoreOptions.open(storePath, readOnly: true)
    defer { try? database.close() }
    return try StoreProvenance.recordedClock(in: database) ?? WallClock.now()
  }
}
