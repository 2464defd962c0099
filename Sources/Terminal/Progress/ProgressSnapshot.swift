/// The state of a stage at one instant, with the figures derived from it.
public struct ProgressSnapshot: Sendable, Equatable {
  /// The stage's name, such as `backfill`.
  public var stage: String
  /// What is counted, such as `customers`.
  public var unit: String
  /// How many items are done.
  public var completed: Int
  /// How many items there are, when known.
  public var total: Int?
  /// The named counters, in the order they were declared or first incremented.
  public var counters: [ProgressCounter]
  /// Time since the stage started.
  public var elapsed: Duration
  /// Items per second over the recent window; `nil` before any time has passed.
  public var recentRate: Double?

  /// Creates a snapshot.
  ///
  /// - Parameters:
  ///   - stage: The stage's name.
  ///   - unit: What is counted.
  ///   - completed: How many items are done.
  ///   - total: How many items there are, when known.
  ///   - counters: The named counters.
  ///   - elapsed: Time since the stage started.
  ///   - recentRate: Items per second over the recent window.
  public init(
    stage: String,
    unit: String,
    completed: Int,
    total: Int?,
    counters: [ProgressCounter],
    elapsed: Duration,
    recentRate: Double?
  ) {
    self.stage = stage
    self.unit = unit
    self.completed = completed
    self.total = total
    self.counters = counters
    self.elapsed = elapsed
    self.recentRate = recentRate
  }

  /// The share done, from 0 to 1; `nil` without a positive total.
  public var fractionCompleted: Double? {
    guard let total, total > 0 else { return nil }
    return Double(completed) / Double(total)
  }

  /// Items per second since the start; `nil` before any time has passed.
  public var averageRate: Double? {
    let seconds = elapsed.seconds
    return seconds > 0 ? Double(completed) / seconds : nil
  }

  /// The remaining items divided by the recent rate; `nil` without a total or while nothing
  /// is moving.
  public var estimatedTimeRemaining: Duration? {
    guard let total, let recentRate, recentRate > 0 else { return nil }
    let seconds = Double(max(total - completed, 0)) / recentRate
    // An ETA past a year says "stalled" better as nothing, and keeps the conversion in range.
    guard seconds < 366 * 86_400 else { return nil }
    return .milliseconds(Int64(seconds * 1000))
  }
}
