import ArgumentParsing
import Entitlements
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore

/// `receipt-migrate explain <account-id>`: one account's comparison with all its evidence.
struct ExplainCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explain",
    abstract: "Show why one account classifies as it does, with the evidence from every side.",
    discussion: """
      Recomputes the account's comparison from the store with a run's instant, catalogue and \
      entitlement table (the most recent run by default) and prints the old and new verdict of \
      every product, the category and its explanation, the legacy records, the seed ids and \
      what became of them, the App Store customers, and the notifications about them that \
      never reached your server (lost) or that Apple may still retry (pending). Accepts a \
      pseudonym from a redacted report (acct_…) as well. No network. Exits 0, 3 when there is \
      no run, 4 when the account is not in the store (saying so when it is only in the run's \
      team table).
      """
  )

  @Argument(help: ArgumentHelp("The account id, or its pseudonym.", valueName: "account-id"))
  var account: String

  @Option(help: ArgumentHelp("The run (default: the most recent).", valueName: "id"))
  var run: String?

  @Flag(help: "Show pseudonyms instead of account ids and customer keys.")
  var redact = false

  @Flag(
    help:
      "Print the account's line of discrepancies.ndjson (the report's schema) instead of text.")
  var json = false

  @OptionGroup var store: StoreOptions

  func run() async throws {
    let storePath = store.path()
    let database = try StoreOptions.open(storePath, readOnly: true)
    defer { try? database.close() }
    let text = try await RunFailures.translating {
      let stored = try StoredRun.load(from: database, id: run)
      let pseudonymizer = try self.pseudonymizer(storePath: storePath)
      let accountId = try resolve(account, store: database, storePath: storePath)
      guard let comparison = try stored.comparison(of: accountId, store: database) else {
        if try database.tableRowCount(runId: stored.row.id, accountId: accountId) > 0 {
          throw ToolFailure.incomplete(
            "the account \"\(TerminalText.escaped(accountId))\" is only in the team table of run "
              + "\(stored.row.id): the legacy data does not hold it, so it was not compared; add "
              + "an original_transaction_id or app_transaction_id column to the table to "
              + "backfill it from the App Store")
        }
        throw ToolFailure.incomplete(
          try missingAccountMessage(accountId, store: database, storePath: storePath))
      }
      if json {
        // The account's line of the report's discrepancies.ndjson: one schema for scripts.
        let bytes =
          ReportWriter.render(
            file: "discrepancies.ndjson", summary: stored.summary, comparisons: [comparison],
            options: ReportOptions(pseudonymizer: redact ? pseudonymizer : nil)) ?? []
        return String(decoding: bytes, as: UTF8.self)
      }
      return ExplainRenderer.render(
        comparison, asOf: stored.recipe.asOf,
        since: try stored.since(of: accountId, store: database),
        pseudonymizer: redact ? pseudonymizer : nil,
        lostNotifications: try LostNotificationListings.ofAccount(accountId, store: database))
    }
    print(text, terminator: "")
  }

  /// The account id itself, or the account whose pseudonym it is.
  private func resolve(_ name: String, store database: MigrationStore, storePath: String) throws
    -> String
  {
    guard name.hasPrefix("acct_"), try !database.hasAccount(name),
      let pseudonymizer = try pseudonymizer(storePath: storePath)
    else { return name }
    return try database.accountIds().first { pseudonymizer.pseudonym(forAccount: $0) == name }
      ?? name
  }

  /// Why an account id names no account, with the ids the store holds that differ from it only
  /// in Unicode normalization: a terminal or a spreadsheet may compose `e` and U+0301 into `é`
  /// (or the reverse), and the store tells accounts apart by their bytes.
  private func missingAccountMessage(
    _ accountId: String, store database: MigrationStore, storePath: String
  ) throws -> String {
    let message = "the database \(storePath) has no account \"\(accountId)\""
    // `==` on `String` is canonical equivalence: exactly the ids that differ only in how they
    // are normalized (the same bytes were looked up and not found).
    let equivalent = try database.accountIds().filter { $0 == accountId }
    guard !equivalent.isEmpty else { return message }
    let listed = equivalent.map(TerminalText.escaped).joined(separator: ", ")
    return message + "; it holds \(equivalent.count == 1 ? "an account" : "accounts") whose id "
      + "differs only in Unicode normalization: \(listed) (you gave "
      + "\(TerminalText.escaped(accountId))); pass the id exactly as stored"
  }

  /// The store's pseudonymizer, if its salt file exists (it is never created here).
  private func pseudonymizer(storePath: String) throws -> Pseudonymizer? {
    let path = RedactionSaltFile.path(forStore: storePath)
    guard FileManager.default.fileExists(atPath: path) else {
      if redact {
        throw ToolFailure.configuration(
          "--redact needs the store's salt \(path), which a run with --redact creates")
      }
      return nil
    }
    do {
      return try Pseudonymizer(salt: Array(try RedactionSaltFile.loadOrCreate(at: path).utf8))
    } catch {
      throw ToolFailure.configuration("\(error)")
    }
  }
}
