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
      environment: environment)
  }
}
