import ArgumentParsing

/// A root command without subcommands or version, with a required inverted flag, a custom
/// short name, a positional array with a default and a run() that fails in several ways.
struct Export: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Export accounts."
  )

  @Flag(inversion: .prefixedEnableDisable, help: "Include sandbox purchases.")
  var sandbox: Bool

  @Option(name: [.customShort("o"), .long], help: "Where to write; - is standard output.")
  var output = "-"

  @Option(help: ArgumentHelp("Rows per file.", valueName: "count"))
  var batchSize = 1000

  @Argument(help: "The accounts to export.")
  var accounts: [Int64] = []

  mutating func run() throws {
    if accounts.isEmpty {
      throw ValidationError("name at least one account to export")
    }
    if output == "/dev/full" {
      throw ExportInterrupted()
    }
    throw ExitCode(4)
  }
}

/// An error that is not a CommandFailure, so it is reported as internal.
struct ExportInterrupted: Error, CustomStringConvertible {
  var description: String { "the export was interrupted" }
}
