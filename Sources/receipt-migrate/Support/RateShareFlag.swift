import ArgumentParsing
import Foundation
import MigrationPipeline

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

  /// The share: the flag, else the store's recipe, else the command's default. A share given
  /// by flag that the recipe lacks is recorded there, so a cron line need not repeat it.
  ///
  /// - Parameters:
  ///   - fallback: the command's default.
  ///   - command: the command, recorded as who set the recipe's value.
  ///   - storePath: the store.
  /// - Returns: a share in (0, 1].
  /// - Throws: `ValidationError` for a value that is not a fraction in range.
  func resolved(default fallback: Double, command: String, storePath: String) throws -> Double {
    let store = try StoreOptions.open(storePath)
    defer { try? store.close() }
    var resolution = StoreRecipe.Resolution(recipe: try StoreRecipe.load(from: store))
    let text = resolution.resolve(.rateShare, flag: rateShare.map(RecipeValue.text))?.text
    let value = try Self.parse(text, default: fallback)
    try StoreRecipe.record(resolution.unrecorded, by: command, at: WallClock.now(), in: store)
    return value
  }

  /// The share, or `fallback` when the flag is not given.
  ///
  /// - Parameter fallback: the command's default.
  /// - Returns: a share in (0, 1].
  /// - Throws: `ValidationError` for a value that is not a fraction in range.
  func share(default fallback: Double) throws -> Double {
    try Self.parse(rateShare, default: fallback)
  }

  /// A share from its text, or `fallback` for none.
  ///
  /// - Parameters:
  ///   - rateShare: `0.5` or `50%`, or `nil`.
  ///   - fallback: the value without one.
  /// - Returns: a share in (0, 1].
  /// - Throws: `ValidationError` for a value that is not a fraction in range.
  static func parse(_ rateShare: String?, default fallback: Double) throws -> Double {
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
