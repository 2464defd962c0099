import AppStoreServerAPI
import ArgumentParsing
import Chronology
import MigrationPipeline

/// How the refresh of the App Store side may spend: `--max-requests`, `--max-duration`, and how
/// far notification windows overlap.
struct RefreshFlags: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "At most this many refresh requests (notification pages, history pages, status calls); "
        + "customers left due are stale_app_store_data and come first next time.",
      valueName: "n"))
  var maxRequests: Int?

  @Option(
    help: ArgumentHelp(
      "Start no refresh request after this long, such as 45m or 2h.", valueName: "duration"))
  var maxDuration: String?

  @Option(
    help: ArgumentHelp(
      "How far each notification window reaches back before the last one's end (default 1h).",
      valueName: "duration"))
  var notificationOverlap: String = "1h"

  @Option(
    help: ArgumentHelp(
      "How old a customer's App Store data may grow while the change feed cannot vouch for the "
        + "time since (default 3d): older data is asked again, oldest first, or its accounts are "
        + "stale_app_store_data.", valueName: "duration"))
  var maxDataAge: String = "3d"

  @Option(
    help: ArgumentHelp(
      "How often to prove the change feed with a test notification (default 7d).",
      valueName: "duration"))
  var feedProofInterval: String = "7d"

  @Flag(
    help:
      "Take a change feed nothing proves as it is (no sweep, no exit 4 for it); never an absent one, nor one found losing notifications."
  )
  var acceptUnprovenFeed = false

  func check() throws {
    if let maxRequests, maxRequests < 0 {
      throw ValidationError("--max-requests must be 0 or more, not \(maxRequests)")
    }
    _ = try options(concurrency: 1, environment: nil)
  }

  /// The refresh options these flags stand for.
  func options(concurrency: Int, environment: AppStoreEnvironment?) throws
    -> RefreshOptions
  {
    RefreshOptions(
      concurrency: concurrency,
      notificationOverlapMilliseconds: try DurationArgument.milliseconds(
        notificationOverlap, flag: "--notification-overlap"),
      maxRequests: maxRequests,
      maxDurationMilliseconds: try maxDuration.map {
        try DurationArgument.milliseconds($0, flag: "--max-duration")
      },
      environment: environment,
      maxDataAgeMilliseconds: try DurationArgument.milliseconds(maxDataAge, flag: "--max-data-age"),
      feedProofIntervalMilliseconds: try DurationArgument.milliseconds(
        feedProofInterval, flag: "--feed-proof-interval"),
      acceptsUnprovenFeed: acceptUnprovenFeed)
  }
}
