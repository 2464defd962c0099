import ArgumentParsing
import MigrationPipeline

/// How the backfill runs: shared by `migrate` and `backfill`.
struct BackfillFlags: ParsableArguments {
  @Option(
    help: ArgumentHelp("How many groups of ids are worked on at once (1 to 256).", valueName: "n"))
  var concurrency: Int = 32

  @Flag(help: "Also fetch every customer's app transaction (one more request per customer).")
  var appTransactions = false

  /// Checks the values.
  func check() throws {
    guard (1...256).contains(concurrency) else {
      throw ValidationError("--concurrency must be between 1 and 256, not \(concurrency)")
    }
  }
}
