import ArgumentParsing
import MigrationPipeline

/// Where reports go and whether accounts are pseudonymised: shared by `migrate` and `report`.
struct ReportFlags: ParsableArguments {
  @Option(help: ArgumentHelp("Where run folders are written.", valueName: "dir"))
  var reports: String = "Reports"

  @Flag(
    help: ArgumentHelp(
      "Pseudonymise account ids in reports (the salt is kept beside the database, so pseudonyms "
        + "stay the same from run to run)."))
  var redact = false

  /// The salt for `--redact`, read or created beside the store; `nil` without `--redact`.
  func redactionSalt(storePath: String) throws -> String? {
    guard redact else { return nil }
    do {
      return try RedactionSaltFile.loadOrCreate(
        at: RedactionSaltFile.path(forStore: storePath))
    } catch {
      throw ToolFailure.configuration("\(error)")
    }
  }
}
