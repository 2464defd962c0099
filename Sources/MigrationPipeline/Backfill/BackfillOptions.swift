/// How the backfill runs.
public struct BackfillOptions: Sendable {
  /// How many groups of ids are worked on at once; the client's per-endpoint rate limiter and
  /// concurrency limit pace the requests themselves.
  public var concurrency: Int
  /// Whether to fetch every customer's app transaction too (one more request per customer).
  public var fetchAppTransactions: Bool

  /// Creates options.
  ///
  /// - Parameters:
  ///   - concurrency: groups worked on at once.
  ///   - fetchAppTransactions: whether to fetch app transactions.
  public init(concurrency: Int = 32, fetchAppTransactions: Bool = false) {
    self.concurrency = concurrency
    self.fetchAppTransactions = fetchAppTransactions
  }
}
