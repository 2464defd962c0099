import ArgumentParsing
import Foundation

/// `--rate-share FRACTION`: the share of Apple's per-app rate limits a command's requests may
/// use. Apple's limits are per app and shared with everything else that calls the App Store
/// Server API for it — the team's live server included — so a batch job paced to the whole
/// limit leaves the live server nothing.
struct RateShareFlag: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "The share of Apple's per-app rate limits this command may use, 0.01 to 1 (or 1% to "
        + "100%); the rest is left to your live server (default: 0.5 for audit, 0.8 for "
        + "migrate and backfill).", valueName: "fraction"))
  var rateShare: String?

  /// `audit`'s default: half. A nightly audit runs while the live server serves customers, whose
  /// own calls come in bursts (purchases, restores, a renewal wave); half of Apple's 50 requests
  /// a second per endpoint still refreshes 90,000 customers an hour.
  static let auditDefault = 0.5

  /// `migrate`'s and `backfill`'s default: four fifths. A migration is a one-off, usually run
  /// while the live server still calls `/verifyReceipt`, so it may take more; a fifth is left for
  /// a live server that already calls the App Store Server API.
  static let migrationDefault = 0.8

  /// The share, or `fallback` when the flag is not given.
  ///
  /// - Parameter fallback: the command's default.
  /// - Returns: a share in (0, 1].
  /// - Throws: `ValidationError` for a value that is not a fraction in range.
  func share(default fallback: Double) throws -> Double {
    guard let rateShare else { return fallback }
    let trimmed = rateShare.trimmingCharacters(in: .whitespaces)
    let value: Double? =
      trimmed.hasSuffix("%")
      ? Double(trimmed.dropLast()).map { $0 / 100 } : Double(trimmed)
    guard let value, value.isFinite, value >= 0.01, value <= 1 else {
      throw ValidationError(
        "--rate-share '\(rateShare)' is not a share of Apple's rate limits; use a fraction from "
          + "0.01 to 1, such as 0.5, or a percentage such as 50%")
    }
    return value
  }
}
