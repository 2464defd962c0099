import AppStoreSimulator
import ArgumentParsing
import Chronology
import MigrationPipeline
import MigrationReports

/// What `migrate` and `audit` share: their options from the flags, with the simulated world's
/// files as defaults, and what they print when they finish.
enum RunDefaults {
  /// A run's options: the flags, else the store's recipe, else the embedded simulator's world
  /// files (its receipts, catalogue and team table) and receipt root; see ``RunSettings``.
  ///
  /// - Parameters:
  ///   - command: the command (`migrate`, `audit`).
  ///   - legacy: `--legacy` paths.
  ///   - requireLegacy: whether a run against Apple needs legacy inputs (`migrate`) or not
  ///     (`audit`, which works on what the store already holds).
  ///   - comparison: the comparison flags.
  ///   - refresh: the refresh flags.
  ///   - backfill: the backfill flags.
  ///   - report: the report flags.
  ///   - receiptRoots: `--receipt-root` paths.
  ///   - connection: the App Store connection.
  ///   - storePath: the store.
  /// - Returns: the options.
  /// - Throws: `ValidationError` for flags that do not fit together,
  ///   ``ToolFailure/configuration(_:)`` for inputs that cannot be read.
  static func options(
    command: String, legacy: [String], requireLegacy: Bool, comparison: ComparisonOptions,
    refresh: RefreshFlags, backfill: BackfillFlags, report: ReportFlags, receiptRoots: [String],
    connection: AppStoreConnection, storePath: String
  ) throws -> MigrationRunOptions {
    let settings = try RunSettings.resolve(
      command: command, storePath: storePath, legacy: legacy, comparison: comparison,
      refresh: refresh, report: report, embedded: connection.embedded)
    if settings.legacy.isEmpty && requireLegacy && connection.embedded == nil {
      throw ValidationError(
        "--legacy is required when talking to Apple: name the stored verifyReceipt responses, "
          + "raw receipts or id lists to migrate")
    }
    var roots = receiptRoots
    if let embedded = connection.embedded, roots.isEmpty {
      roots = [embedded.setup.rootCertificatePath]
    }
    var refreshOptions = try refresh.options(
      concurrency: backfill.concurrency, environment: connection.environment)
    refreshOptions.maxRequests = settings.maxRequests
    refreshOptions.maxDurationMilliseconds = settings.maxDurationMilliseconds
    var options = MigrationRunOptions(
      legacyPaths: settings.legacy,
      reader: .init(receiptVerifier: try ReceiptRoots.verifier(paths: roots)),
      catalogPath: settings.catalog, currentEntitlementsPath: settings.currentEntitlements,
      reportsDirectory: settings.reports, asOf: comparison.asOf,
      backfill: BackfillOptions(
        concurrency: backfill.concurrency, fetchAppTransactions: backfill.appTransactions,
        environment: connection.environment),
      refresh: refreshOptions,
      since: comparison.since, failOn: settings.failOn,
      redactionSalt: try ReportFlags.redactionSalt(redact: settings.redact, storePath: storePath),
      tokens: settings.tokens)
    options.command = command
    options.commandLine = CommandLineScrubber.scrub(Array(CommandLine.arguments.dropFirst()))
    options.usedInputs = settings.used
    return options
  }

  /// Prints what a run did: quarantined inputs, the headline, what changed, rejected rows.
  ///
  /// - Parameters:
  ///   - outcome: the run's outcome.
  ///   - storePath: the store.
  static func print(_ outcome: MigrationOutcome, storePath: String) {
    if let ingest = outcome.ingest, !ingest.isClean {
      Swift.print(IngestSummaryRenderer.text(ingest, storePath: storePath), terminator: "")
      Swift.print("")
    }
    Swift.print(
      RunSummaryTerminalRenderer.render(
        summary: outcome.run.summary, statistics: outcome.run.statistics,
        changes: outcome.run.changes, reportDirectory: outcome.reportDirectory),
      terminator: "")
    RejectedRows.print(outcome.run.rejectedTableRows)
    RejectedRows.print(outcome.run.quarantinedTokenRows)
  }
}
