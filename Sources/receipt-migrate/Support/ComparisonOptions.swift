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
      "How many --fail-on accounts are tolerated before exiting 1 (default 0).", valueName: "n"))
  var failThreshold: Int?

  @OptionGroup var tokens: TokenOptions

  /// The `--fail-on` policy of the flags alone, checked.
  func failOnPolicy() throws -> FailOnPolicy? {
    try Self.policy(failOn: failOn, threshold: failThreshold, origin: "--fail-on")
  }

  /// A `--fail-on` policy, checked.
  ///
  /// - Parameters:
  ///   - failOn: the selectors, or `nil`.
  ///   - threshold: the threshold, or `nil` for 0.
  ///   - origin: where the values came from, for the message.
  /// - Returns: the policy, or `nil` without selectors.
  /// - Throws: `ValidationError`.
  static func policy(failOn: String?, threshold: Int?, origin: String) throws -> FailOnPolicy? {
    let threshold = threshold ?? 0
    guard threshold >= 0 else {
      throw ValidationError("--fail-threshold must be 0 or more, not \(threshold)")
    }
    guard let failOn else { return nil }
    do {
      return try FailOnPolicy(parsing: failOn, threshold: threshold)
    } catch {
      throw ValidationError("\(origin): \(error)")
    }
  }
}
