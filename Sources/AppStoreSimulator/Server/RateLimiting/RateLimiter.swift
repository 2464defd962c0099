import AppStoreServerAPI
import Chronology
import Synchronization

/// Counts requests against `SimulatorRateLimits`, one counter per endpoint and environment, on
/// the injected wall clock (clients pace themselves by their own clock, not the world's).
final class RateLimiter: Sendable {
  private struct Key: Hashable {
    var endpoint: Endpoint
    var environment: SimulatedEnvironment
  }

  /// One counter: a token bucket (per-second mode) or a window and its count (hourly mode).
  private struct Counter {
    var tokens: Double
    var refilledAt: Int64
    var windowStart: Int64?
    var used: Int64 = 0
  }

  private static let hour = Timestamp.millisecondsPerHour

  let limits: SimulatorRateLimits
  private let counters = Mutex<[Key: Counter]>([:])

  init(limits: SimulatorRateLimits) {
    self.limits = limits
  }

  /// Counts one request.
  ///
  /// - Returns: `nil` when the request may proceed, or the instant from which one would be
  ///   admitted (the `Retry-After` value).
  func admit(_ endpoint: Endpoint, in environment: SimulatedEnvironment, at now: Timestamp)
    -> Timestamp?
  {
    guard limits.isEnabled else { return nil }
    let rate = max(limits.requestsPerSecond(for: endpoint, in: environment), 1.0 / 3600)
    let instant = now.millisecondsSince1970
    return counters.withLock { counters -> Timestamp? in
      let key = Key(endpoint: endpoint, environment: environment)
      switch limits.mode {
      case .perSecond:
        // The bucket holds one second of requests, so a client pacing itself at the documented
        // rate is never refused while a burst above it is.
        let capacity = max(1, rate)
        var counter = counters[key] ?? Counter(tokens: capacity, refilledAt: instant)
        let elapsed = Double(max(0, instant - counter.refilledAt)) / 1000
        counter.tokens = min(capacity, counter.tokens + elapsed * rate)
        counter.refilledAt = instant
        defer { counters[key] = counter }
        if counter.tokens >= 1 {
          counter.tokens -= 1
          return nil
        }
        let wait = ((1 - counter.tokens) / rate * 1000).rounded(.up)
        return Timestamp(millisecondsSince1970: instant + max(1, Int64(wait)))
      case .hourly(let alignment):
        let budget = max(1, Int64((rate * 3600).rounded(.down)))
        var counter = counters[key] ?? Counter(tokens: 0, refilledAt: instant)
        let start: Int64
        switch alignment {
        case .clockHour:
          start = instant - ((instant % Self.hour) + Self.hour) % Self.hour
        case .rolling:
          if let current = counter.windowStart, instant < current + Self.hour {
            start = current
          } else {
            start = instant
          }
        }
        if counter.windowStart != start {
          counter.windowStart = start
          counter.used = 0
        }
        defer { counters[key] = counter }
        if counter.used < budget {
          counter.used += 1
          return nil
        }
        return Timestamp(millisecondsSince1970: start + Self.hour)
      }
    }
  }
}
