import ArgumentParsing
import Chronology
import MigrationPipeline

/// What a comparison compares and when it fails: shared by `migrate` and `compare`.
struct ComparisonOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The product catalogue (product_id,type[,subscription_group_identifier]).", valueName: "csv"))
  var catalog: String?

  @Option(
    help: ArgumentHelp(
      "Your current entitlement table, compared as a third side "
        + "(account_id,product_id,status,expires_at).", valueName: "csv"))
  var currentEntitlements: String?

  @Option(
    help: ArgumentHelp(
      "The comparison instant, ISO 8601, Unix seconds or ms (default: now; the world's clock when "
        + "simulated).", valueName: "instant"),
    transform: InstantArgument.parse)
  var asOf: Timestamp?

  @Option(
    help: ArgumentHelp(
      "Exit 1 when accounts land in these categories or impacts (loses_access, gains_access, "
        + "changes_terms, needs_attention, any); table:<…> reads your table's category, new:<…> "
        + "only accounts that entered it since the previous run.", valueName: "list"))
  var failOn: String?

  @Option(
    help: ArgumentHelp(
      "Say what changed since this run (default: the previous finished run of the store).",
      valueName: "run-id"))
  var since: String?

  @Option(
    help: ArgumentHelp(
      "How many --fail-on accounts are tolerated before exiting 1.", valueName: "n"))
  var failThreshold: Int = 0

  @OptionGroup var tokens: TokenOptions

  /// The `--fail-on` policy, checked.
  func failOnPolicy() throws -> FailOnPolicy? {
    guard failThreshold >= 0 else {
      throw ValidationError("--fail-threshold must be 0 or more, not \(failThreshold)")
    }
    guard let failOn else {
      if failThreshold > 0 { throw ValidationError("--fail-threshold needs --fail-on") }
      return nil
    }
    do {
      return try FailOnPolicy(parsing: failOn, threshold: failThreshold)
    } catch {
      throw ValidationError("--fail-on: \(error)")
    }
  }
}
