import AppStoreServerAPI

/// How the backfill runs.
public struct BackfillOptions: Sendable {
  /// How many groups of ids are worked on at once; the client's per-endpoint rate limiter and
  /// concurrency limit pace the requests themselves.
  public var concurrency: Int
  /// Whether to fetch every customer's app transaction too (one more request per customer).
  public var fetchAppTransactions: Bool
  /// The one environment to ask, or `nil` (the default) for the receipt's environment hint
  /// first, production when there is none, then the other environment.
  public var environment: AppStoreEnvironment?

  /// Creates options.
  ///
  /// - Parameters:
  ///   - concurrency: groups worked on at once.
  ///   - fetchAppTransactions: whether to fetch app transactions.
  ///   - environment: the one environment to ask, or `nil` for automatic.
  public init(
    concurrency: Int = 32, fetchAppTransactions: Bool = false,
    environment: AppStoreEnvironment? = nil
  ) {
    self.concurrency = concurrency
    self.fetchAppTransactions = fetchAppTransactions
    self.environment = environment
  }
}
