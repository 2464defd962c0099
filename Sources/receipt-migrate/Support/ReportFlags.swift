import ArgumentParsing
import MigrationPipeline

/// Where reports go and whether accounts are pseudonymised: shared by `migrate` and `report`.
struct ReportFlags: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Where run folders are written (default: the store's recipe, else Reports).",
      valueName: "dir"))
  var reports: String?

  /// Where run folders go when neither the flag nor the store's recipe says.
  static let defaultReports = "Reports"

  @Flag(
    help: ArgumentHelp(
      "Pseudonymise account ids in reports (the salt is kept beside the database, so pseudonyms "
        + "stay the same from run to run)."))
  var redact = false

  /// The salt for `--redact`, read or created beside the store; `nil` without `--redact`.
  func redactionSalt(storePath: String) throws -> String? {
    try Self.redactionSalt(redact: redact, storePath: storePath)
  }

  /// The redaction salt, read or created beside the store, when reports are redacted.
  ///
  /// - Parameters:
  ///   - redact: whether reports are redacted.
  ///   - storePath: the store.
  /// - Returns: the salt, or `nil`.
  static func redactionSalt(redact: Bool, storePath: String) throws -> String? {
    guard redact else { return nil }
    do {
      return try RedactionSaltFile.loadOrCreate(
        at: RedactionSaltFile.path(forStore: storePath))
    } catch {
      throw ToolFailure.configuration("\(error)")
    }
  }
}
