/// A setting of the store's recipe: an input or an option the job runs with, named as its flag
/// is (without the dashes).
///
/// The recipe records each setting the first time a run uses it; every later `migrate`,
/// `audit`, `compare` and `report` uses the recorded value unless its flag is given (then the
/// flag wins for that run, and the run says so); `receipt-migrate recipe set` changes it.
public enum RecipeSetting: String, CaseIterable, Hashable, Sendable {
  /// The legacy inputs (`--legacy`).
  case legacy
  /// The product catalogue (`--catalog`).
  case catalog
  /// The team's entitlement table (`--current-entitlements`).
  case currentEntitlements = "current-entitlements"
  /// The token mapping file (`--tokens`).
  case tokens
  /// The namespace tokens are derived in (`--derive-tokens`).
  case deriveTokens = "derive-tokens"
  /// When a run fails (`--fail-on`).
  case failOn = "fail-on"
  /// How many `--fail-on` accounts are tolerated (`--fail-threshold`).
  case failThreshold = "fail-threshold"
  /// The refresh's request budget (`--max-requests`).
  case maxRequests = "max-requests"
  /// The refresh's time budget (`--max-duration`).
  case maxDuration = "max-duration"
  /// The share of Apple's per-app rate limits the job may use (`--rate-share`).
  case rateShare = "rate-share"
  /// Where run folders are written (`--reports`).
  case reports
  /// Whether reports pseudonymise account ids (`--redact`).
  case redact
  /// How many run folders are kept (`--keep-reports`).
  case keepReports = "keep-reports"
  /// The command run with the headline when a run alerts (`--notify-command`).
  case notifyCommand = "notify-command"
  /// The URL the headline is posted to when a run alerts (`--webhook`).
  case webhook
  /// The metrics file written after every run (`--metrics-file`).
  case metricsFile = "metrics-file"

  /// What a setting's value is.
  public enum Kind: Hashable, Sendable {
    /// A file or folder, kept as an absolute path.
    case path
    /// Several files or folders, kept as absolute paths.
    case paths
    /// Text.
    case text
    /// A whole number, 0 or more.
    case count
    /// A duration such as `2h`.
    case duration
    /// On or off.
    case flag
  }

  /// What the setting's value is.
  public var kind: Kind {
    switch self {
    case .legacy: return .paths
    case .catalog, .currentEntitlements, .tokens, .reports, .metricsFile: return .path
    case .deriveTokens, .failOn, .notifyCommand, .webhook, .rateShare: return .text
    case .failThreshold, .maxRequests, .keepReports: return .count
    case .maxDuration: return .duration
    case .redact: return .flag
    }
  }

  /// The flag that overrides the setting for one run.
  public var flag: String { "--" + rawValue }

  /// Whether the value is a secret that is never shown in full (a webhook URL carries its own
  /// token; the namespace lets anyone compute every account's token).
  public var isSecret: Bool { self == .webhook || self == .deriveTokens }

  /// The settings that decide what a comparison classifies and when a run fails: what
  /// `compare` takes from the recipe.
  public static let comparison: [RecipeSetting] = [
    .catalog, .currentEntitlements, .tokens, .deriveTokens, .failOn, .failThreshold,
  ]
}
