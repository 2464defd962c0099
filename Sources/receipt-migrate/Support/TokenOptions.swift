import ArgumentParsing
import MigrationPipeline

/// The team's `appAccountToken` mapping: shared by `link` and the comparisons that audit
/// tokens (`migrate`, `audit`, `compare`).
struct TokenOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Your accounts' app account tokens, a CSV with the header account_id,app_account_token; "
        + "audits every purchase's token against it.", valueName: "csv"))
  var tokens: String?

  @Option(
    help: ArgumentHelp(
      "Derive each account's token as the UUID version 5 of its account id in this namespace "
        + "UUID (instead of --tokens).", valueName: "uuid"))
  var deriveTokens: String?

  /// The mapping's source, checked, or `nil` when neither flag was given.
  ///
  /// - Throws: `ValidationError` (exit 2) for both flags or a namespace that is not a UUID.
  func source() throws -> AccountTokenSource? {
    switch (tokens, deriveTokens) {
    case (nil, nil): return nil
    case (let path?, nil):
      try InputChecks.readable([path], flag: "--tokens")
      return .file(path)
    case (nil, let namespace?):
      do {
        return try AccountTokenSource.deriving(namespace: namespace)
      } catch {
        throw ValidationError("\(error)")
      }
    case (.some, .some):
      throw ValidationError("--tokens and --derive-tokens cannot be combined; choose one")
    }
  }
}
