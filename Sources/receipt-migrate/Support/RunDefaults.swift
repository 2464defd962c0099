import AppStoreSimulator
import ArgumentParsing
import Chronology
import MigrationPipeline
import MigrationReports

/// What `migrate` and `audit` share: their options from the flags, with the simulated world's
/// files as defaults, and what they print when they finish.
enum RunDefaults {
  /// A run's options: the flags, with the embedded simulator's world files as defaults (its
  /// receipts, catalogue, team table and receipt root) when no legacy input is named.
  ///
  /// - Parameters:
  ///   - legacy: `--legacy` paths.
  ///   - requireLegacy: whether a run against Apple needs `--legacy` (`migrate`) or not
  ///     (`audit`, which works on what the store already holds).
  ///   - comparison: the comparison flags.
  ///   - refresh: the refresh flags.
  ///   - backfill: the backfill flags.
  ///   - report: the report flags.
  ///   - receiptRoots: `--receipt-root` paths.
  ///   - connection: the App Store connection.
  ///   - storePath: the store.
  /// - Returns: the options.
  /// - Throws: `ValidationError` for flags that do not fit together.
  static func options(
    legacy: [String], requireLegacy: Bool, comparison: ComparisonOptions, refresh: RefreshFlags,
    backfill: BackfillFlags, report: ReportFlags, receiptRoots: [String],
    connection: AppStoreConnection, storePath: String
  ) throws -> MigrationRunOptions {
    var legacyPaths = legacy
    var catalog = comparison.catalog
    var table = comparison.currentEntitlements
    var roots = receiptRoots
    if let embedded = connection.embedded {
      if legacyPaths.isEmpty {
        legacyPaths = [embedded.file(GeneratedArchive.FileName.receipts)]
        catalog = catalog ?? embedded.file(GeneratedArchive.FileName.products)
        table = table ?? embedded.file(GeneratedArchive.FileName.currentEntitlements)
        if roots.isEmpty { roots = [embedded.setup.rootCertificatePath] }
      }
    } else if legacyPaths.isEmpty && requireLegacy {
      throw ValidationError(
        "--legacy is required when talking to Apple: name the stored verifyReceipt responses, "
          + "raw receipts or id lists to migrate")
    }
    // Every input is checked before any request is sent (exit 3 naming the flag).
    try InputChecks.readable(legacy, flag: "--legacy")
    try InputChecks.comparisonFiles(comparison)
    return MigrationRunOptions(
      legacyPaths: legacyPaths,
      reader: .init(receiptVerifier: try ReceiptRoots.verifier(paths: roots)),
      catalogPath: catalog, currentEntitlementsPath: table,
      reportsDirectory: report.reports, asOf: comparison.asOf,
      backfill: BackfillOptions(
        concurrency: backfill.concurrency, fetchAppTransactions: backfill.appTransactions,
        environment: connection.environment),
      refresh: try refresh.options(
        concurrency: backfill.concurrency, environment: connection.environment),
      since: comparison.since, failOn: try comparison.failOnPolicy(),
      redactionSalt: try report.redactionSalt(storePath: storePath),
      tokens: try comparison.tokens.source())
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
