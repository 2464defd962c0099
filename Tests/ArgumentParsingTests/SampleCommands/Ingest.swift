import ArgumentParsing

/// A leaf command with every kind of argument.
struct Ingest: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Read stored verifyReceipt responses into the migration database."
  )

  @Argument(help: "Files of stored verifyReceipt responses.")
  var paths: [String]

  @OptionGroup var store: StoreOptions

  @Option(name: [.customShort("j"), .long], help: "Files read at the same time.")
  var concurrency = 4

  @Option(help: "The format of the input files.")
  var format: ExportFormat = .ndjson

  @Option(help: "Only read accounts under this root; repeat for several roots.")
  var root: [String] = []

  @Option(help: "Stop after this many accounts.")
  var limit: Int64?

  @Option(help: "Skip responses older than this day (YYYY-MM-DD).", transform: Day.init(parsing:))
  var since: Day?

  @Flag(inversion: .prefixedNo, help: "Skip files that were already read.")
  var resume = true

  @Flag(name: .shortAndLong, help: "Print every file as it is read.")
  var verbose = false

  mutating func validate() throws {
    guard concurrency > 0 else {
      throw ValidationError("--concurrency must be at least 1, not \(concurrency)")
    }
  }
}
