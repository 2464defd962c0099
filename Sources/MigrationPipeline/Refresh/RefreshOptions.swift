import AppStoreServerAPI
import Chronology

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
  public init(
    concurrency: Int = 32, notificationOverlapMilliseconds: Int64 = Timestamp.millisecondsPerHour,
    fetchedDataToleranceMilliseconds: Int64 = 5 * 60_000,
    notificationReachDays: [AppStoreEnvironment: Int] = [.production: 180, .sandbox: 30],
    maxRequests: Int? = nil, maxDurationMilliseconds: Int64? = nil,
    environment: AppStoreEnvironment? = nil
  ) {
    self.concurrency = concurrency
    self.notificationOverlapMilliseconds = notificationOverlapMilliseconds
    self.fetchedDataToleranceMilliseconds = fetchedDataToleranceMilliseconds
    self.notificationReachDays = notificationReachDays
    self.maxRequests = maxRequests
    self.maxDurationMilliseconds = maxDurationMilliseconds
    self.environment = environment
  }

  /// How far back notifications reach in `environment`, in milliseconds.
  func reach(_ environment: AppStoreEnvironment) -> Int64 {
    Int64(notificationReachDays[environment] ?? (environment == .production ? 180 : 30))
      * Timestamp.millisecondsPerDay
  }
}
