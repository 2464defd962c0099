import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore
import Terminal

/// What `migrate` and `audit` do once a run is recorded and its report committed: say what
/// happened (in full, as JSON, or — with `--quiet` — only when it alerts), remove old report
/// folders, write the metrics file, and hand the headline to the notify command and the webhook
/// when the run alerts. Only then does the run end (and become the next run's baseline).
struct RunCompletion {
  /// The settings that decide it, resolved from the flags and the store's recipe.
  var quiet = false
  var json = false
  var delivery = AlertDelivery(notifyCommand: nil, webhook: nil)
  var metricsFile: String?
  var keepReports: Int?

  /// Resolves the alert settings from the flags and the store's recipe (recording the ones
  /// the recipe lacks).
  ///
  /// - Parameters:
  ///   - flags: the flags.
  ///   - command: the command, recorded as who set a value.
  ///   - storePath: the store.
  /// - Returns: the settings, and what each came from.
  static func resolve(_ flags: AlertFlags, command: String, storePath: String) throws -> (
    RunCompletion, [UsedInput]
  ) {
    let store = try StoreOptions.open(storePath)
    defer { try? store.close() }
    var resolution = StoreRecipe.Resolution(recipe: try StoreRecipe.load(from: store))
    var completion = RunCompletion(quiet: flags.quiet, json: flags.json)
    completion.delivery = AlertDelivery(
      notifyCommand: resolution.resolve(
        .notifyCommand, flag: flags.notifyCommand.map(RecipeValue.text))?.text,
      webhook: resolution.resolve(.webhook, flag: flags.webhook.map(RecipeValue.text))?.text)
    completion.metricsFile =
      resolution.resolve(
        .metricsFile, flag: flags.metricsFile.map { .text(MigrationRunner.absolutePath($0)) })?
      .text
    completion.keepReports =
      resolution.resolve(.keepReports, flag: flags.keepReports.map(RecipeValue.number))?.number
    try StoreRecipe.record(resolution.unrecorded, by: command, at: WallClock.now(), in: store)
    return (completion, resolution.used)
  }

  /// Tells about a run whose report is committed: prints it, removes old report folders,
  /// writes the metrics file and hands the headline to the notify command and the webhook when
  /// the run alerts. The runner records the run as ended when this returns; the command then
  /// exits with the run's code (``RunFailures/finish(_:)``).
  ///
  /// - Parameters:
  ///   - outcome: the run.
  ///   - storePath: the store.
  ///   - reportsDirectory: where its report folders are.
  /// - Throws: `SQLiteError`.
  func deliver(_ outcome: MigrationOutcome, storePath: String, reportsDirectory: String)
    async
    throws
  {
    let run = outcome.run
    let exitCode = run.exitStatus
    if json {
      FileHandle.standardOutput.write(
        Data(
          ReportWriter.runJSON(
            summary: run.summary, statistics: run.statistics,
            context: RunContext(changes: run.changes, lostNotifications: run.lostNotifications))))
    } else if !quiet {
      RunDefaults.print(outcome, storePath: storePath)
    } else if exitCode != 0 {
      print(
        RunHeadline(run: run, reportDirectory: outcome.reportDirectory, storePath: storePath).text,
        terminator: "")
      RejectedRows.print(run.rejectedTableRows)
      RejectedRows.print(run.quarantinedTokenRows)
    }
    let store = try StoreOptions.open(storePath)
    defer { try? store.close() }
    if let keepReports {
      let removed = try ReportRetention.prune(
        store: store, reportsDirectory: reportsDirectory, keep: keepReports)
      if !removed.isEmpty && !quiet {
        StandardError.write(
          "receipt-migrate: --keep-reports \(keepReports): removed \(removed.count) old report "
            + "folder(s): \(removed.joined(separator: ", "))\n")
      }
    }
    if let metricsFile {
      do {
        // This run ends when the delivery returns; a clean one is the last success.
        let earlier = try store.runLedger.lastSuccessMilliseconds()
        let lastSuccess =
          exitCode == 0 ? WallClock.now().millisecondsSince1970 : earlier
        try MetricsFile(
          summary: run.summary, statistics: run.statistics, staleAccounts: run.staleAccounts,
          exitCode: exitCode,
          lastSuccess: lastSuccess.map { Date(timeIntervalSince1970: Double($0) / 1000) }
        ).write(to: metricsFile)
      } catch {
        StandardError.write(
          "receipt-migrate: warning: the metrics file \(metricsFile) could not be written: "
            + "\(error)\n")
      }
    }
    if exitCode != 0, delivery.isConfigured {
      let headline = RunHeadline(
        run: run, reportDirectory: outcome.reportDirectory, storePath: storePath)
      for failure in await delivery.deliver(headline) {
        StandardError.write("receipt-migrate: warning: \(failure)\n")
      }
    }
  }
}
