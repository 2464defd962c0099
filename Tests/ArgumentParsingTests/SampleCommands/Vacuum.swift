import ArgumentParsing

/// A nested asynchronous subcommand with a required option and a hidden one.
struct Vacuum: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Reclaim the space of deleted rows."
  )

  @OptionGroup var store: StoreOptions

  @Option(help: "Give up after this many seconds.")
  var timeout: Double

  @Flag(help: ArgumentHelp("Show what would be reclaimed.", visibility: .hidden))
  var dryRun = false

  mutating func run() async throws {
    guard !dryRun else { throw CleanExit.message("would reclaim space in \(store.databasePath)") }
    throw ReclaimFailed(path: store.databasePath)
  }
}

/// A failure with its own exit code, as run() reports one.
struct ReclaimFailed: CommandFailure {
  var path: String
  var exitCode: ExitCode { ExitCode(3) }
  var message: String { "cannot open \(path); check that the file exists" }
}
