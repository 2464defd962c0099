import Chronology

/// The stretch of time a world's timeline is extended over: from its clock (exclusive) to the
/// horizon (inclusive). Every fact the extension adds lies inside it.
struct TimelineWindow {
  /// The world's clock: nothing at or before it changes.
  let now: Timestamp
  /// The last instant of the timeline.
  let horizon: Timestamp

  /// How many 30-day spans the window covers, for rates given per 30 days.
  var months: Double {
    Double(horizon.milliseconds(since: now)) / Double(30 * Timestamp.millisecondsPerDay)
  }

  /// A uniformly drawn instant after `start` (and after the clock), up to the horizon.
  ///
  /// - Parameters:
  ///   - start: the earliest instant (exclusive).
  ///   - random: the stream to draw from.
  func instant(after start: Timestamp, random: inout SeededRandom) -> Timestamp {
    let from = max(start, now)
    let span = max(1, horizon.milliseconds(since: from))
    return from.adding(milliseconds: 1 + Int64(random.unit() * Double(span - 1)))
  }

  /// A chance given per 30 days, for the whole window (at most 1).
  ///
  /// - Parameter ratePer30Days: the rate.
  func chance(per30Days ratePer30Days: Double) -> Double {
    min(1, ratePer30Days * months)
  }
}
