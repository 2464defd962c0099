import ArgumentParsing
import Foundation
import MigrationPipeline
import MigrationReports

/// `receipt-migrate runs`: the store's runs, newest first.
struct RunsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "runs",
    abstract: "List the store's runs: the nights as a history.",
    discussion: """
      One line per run, newest first: its id, the command that made it, when it started, its \
      comparison instant, whether its report was committed, the accounts by impact, the new \
      and resolved findings since the run it was compared with, the lost notifications it \
      listed, and the exit code. Read-only. Exits 0, or 3 when there is no database.
      """
  )

  @Option(help: ArgumentHelp("Show at most this many runs.", valueName: "n"))
  var limit: Int?

  @Flag(help: "Print the runs as JSON (schema_version, runs[]).")
  var json = false

  @OptionGroup var store: StoreOptions

  func validate() throws {
    if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more, not \(limit)") }
  }

  func run() async throws {
    let database = try store.openStore(readOnly: true)
    defer { try? database.close() }
    let entries = try RunHistory.entries(in: database, limit: limit)
    if json {
      FileHandle.standardOutput.write(Data(RunHistoryRenderer.json(entries)))
    } else {
      print(RunHistoryRenderer.text(entries), terminator: "")
    }
  }
}
