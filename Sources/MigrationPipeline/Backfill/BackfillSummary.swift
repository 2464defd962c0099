import AppStoreServerAPI

/// What a backfill did.
public struct BackfillSummary: Sendable {
  /// Groups of ids (each usually one customer) planned.
  public var groups = 0
  /// Customers whose history and statuses are now complete.
  public var customers = 0
  /// Customers finished from a walk an earlier, interrupted run began.
  public var resumedCustomers = 0
  /// Ids by the outcome recorded for them in this run: `found`, `covered`, `unknown`,
  /// `invalid`, `failed` (an id recorded twice, failed and later covered, counts twice).
  public var idOutcomes: [String: Int] = [:]
  /// Order ids looked up in this run, by outcome: `valid`, `invalid`, `failed`.
  public var orderOutcomes: [String: Int] = [:]
  /// History pages fetched in this run.
  public var historyPages = 0
  /// Status calls made in this run.
  public var statusCalls = 0
  /// Wall time in milliseconds.
  public var durationMilliseconds: Int64 = 0
  /// The client's request counters at the end.
  public var counters: RequestCountersSnapshot?

  /// Creates an empty summary.
  public init() {}

  /// Ids the store still holds as failed when the stage ends (retries exhausted, verification
  /// failed, a customer whose walk or statuses failed): a rerun tries them again.
  public var failedIds = 0
}
