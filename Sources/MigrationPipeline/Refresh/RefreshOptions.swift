import AppStoreServerAPI
import Chronology
import Entitlements

/// How the refresh runs: how far notification windows overlap, how far back Apple keeps
/// notifications, how much it may spend, and how many customers it works at once.
public struct RefreshOptions: Sendable {
  /// How many due customers are worked at once; the client paces the requests themselves.
  public var concurrency: Int
  /// How far each notification window reaches back before the end of the last one read (one
  /// hour by default): notifications signed just before a window's end are read twice rather
  /// than missed when Apple's clock and ours disagree a little.
  public var notificationOverlapMilliseconds: Int64
  /// A notification signed this long or longer before a customer's data was fetched is already
  /// in that data and does not make the customer due (five minutes by default, for the same
  /// disagreement of clocks).
  public var fetchedDataToleranceMilliseconds: Int64
  /// How far back Apple's notification history reaches, per environment: 180 days in
  /// production and 30 in sandbox, as Apple documents; settings in case Apple changes them.
  public var notificationReachDays: [AppStoreEnvironment: Int]
  /// At most this many requests of the refresh's own (the client's retries of a 429 or a
  /// server error come on top), or `nil` for no limit.
  public var maxRequests: Int?
  /// Start no new request after this long, or `nil` for no limit.
  public var maxDurationMilliseconds: Int64?
  /// The one environment to refresh, or `nil` for every environment the store's customers
  /// live in.
  public var environment: AppStoreEnvironment?
  /// How old a customer's App Store data may grow while the change feed cannot vouch for the
  /// time since it was fetched: three days by default (see ``defaultMaxDataAgeMilliseconds``).
  public var maxDataAgeMilliseconds: Int64
  /// How often the change feed is proven with a test notification: a week by default.
  public var feedProofIntervalMilliseconds: Int64
  /// Whether a feed nothing proves is taken as it is: no sweep, no exit 4 for it. For teams that
  /// know their notification URL works and cannot prove it — never an absent feed, nor one
  /// found losing notifications (renewals without notifications, a test notification sent and
  /// never listed).
  public var acceptsUnprovenFeed: Bool
  /// The team's token mapping, to follow customers outside the store whose purchase carries an
  /// `appAccountToken` it knows; `nil` when none is given.
  public var tokenMapping: AccountTokenMapping?

  /// Three days: while the feed cannot vouch for them, a third of the customers are asked again
  /// each night — at a million customers about 3.7 hours at the audit's default rate share —
  /// and a change the feed did not show is found within three days. A week halves the cost and
  /// doubles the wait; a day would not fit a night at a million customers.
  public static let defaultMaxDataAgeMilliseconds: Int64 = 3 * Timestamp.millisecondsPerDay

  /// Creates options.
  ///
  /// - Parameters:
  ///   - concurrency: due customers worked at once.
  ///   - notificationOverlapMilliseconds: how far windows overlap.
  ///   - fetchedDataToleranceMilliseconds: see ``fetchedDataToleranceMilliseconds``.
  ///   - notificationReachDays: how far back Apple keeps notifications, per environment.
  ///   - maxRequests: the request budget.
  ///   - maxDurationMilliseconds: the time budget.
  ///   - environment: the one environment to refresh.
  ///   - maxDataAgeMilliseconds: see ``maxDataAgeMilliseconds``.
  ///   - feedProofIntervalMilliseconds: see ``feedProofIntervalMilliseconds``.
  ///   - acceptsUnprovenFeed: see ``acceptsUnprovenFeed``.
  ///   - tokenMapping: see ``tokenMapping``.
  public init(
    concurrency: Int = 32, notificationOverlapMilliseconds: Int64 = Timestamp.millisecondsPerHour,
    fetchedDataToleranceMilliseconds: Int64 = 5 * 60_000,
    notificationReachDays: [AppStoreEnvironment: Int] = [.production: 180, .sandbox: 30],
    maxRequests: Int? = nil, maxDurationMilliseconds: Int64? = nil,
    environment: AppStoreEnvironment? = nil,
    maxDataAgeMilliseconds: Int64 = RefreshOptions.defaultMaxDataAgeMilliseconds,
    feedProofIntervalMilliseconds: Int64 = 7 * Timestamp.millisecondsPerDay,
    acceptsUnprovenFeed: Bool = false, tokenMapping: AccountTokenMapping? = nil
  ) {
    self.concurrency = concurrency
    self.notificationOverlapMilliseconds = notificationOverlapMilliseconds
    self.fetchedDataToleranceMilliseconds = fetchedDataToleranceMilliseconds
    self.notificationReachDays = notificationReachDays
    self.maxRequests = maxRequests
    self.maxDurationMilliseconds = maxDurationMilliseconds
    self.environment = environment
    self.maxDataAgeMilliseconds = maxDataAgeMilliseconds
    self.feedProofIntervalMilliseconds = feedProofIntervalMilliseconds
    self.acceptsUnprovenFeed = acceptsUnprovenFeed
    self.tokenMapping = tokenMapping
  }

  /// How far back notifications reach in `environment`, in milliseconds.
  func reach(_ environment: AppStoreEnvironment) -> Int64 {
    Int64(notificationReachDays[environment] ?? (environment == .production ? 180 : 30))
      * Timestamp.millisecondsPerDay
  }
}
