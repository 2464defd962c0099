/// Measures a rate over the last `span` of time rather than since the start, so the rate and
/// the ETA follow slowdowns (rate limiting, a slow shard) within seconds.
///
/// It keeps at most one sample per tenth of the span, so its memory is bounded however often
/// progress is reported.
struct RateWindow: Sendable {
  private struct Sample {
    var time: ContinuousClock.Instant
    var count: Int
  }

  let span: Duration
  /// Samples oldest first; the first is the newest one at or before the window's start.
  private var samples: [Sample]

  init(span: Duration, start: ContinuousClock.Instant) {
    self.span = span
    self.samples = [Sample(time: start, count: 0)]
  }

  /// How many samples are kept, to prove the memory bound.
  var sampleCount: Int { samples.count }

  /// Notes that `count` items were done by `time`.
  mutating func record(_ count: Int, at time: ContinuousClock.Instant) {
    if let last = samples.last, time - last.time < span / 10 {
      return
    }
    samples.append(Sample(time: time, count: count))
    while samples.count > 1, samples[1].time <= time - span {
      samples.removeFirst()
    }
  }

  /// Items per second between the window's start and `time`, when `count` items are done;
  /// `nil` until some time has passed.
  func rate(at time: ContinuousClock.Instant, count: Int) -> Double? {
    let start = samples.last { $0.time <= time - span } ?? samples[0]
    let elapsed = (time - start.time).seconds
    guard elapsed > 0 else { return nil }
    return Double(count - start.count) / elapsed
  }
}

extension Duration {
  /// The duration in seconds, with its fraction.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
