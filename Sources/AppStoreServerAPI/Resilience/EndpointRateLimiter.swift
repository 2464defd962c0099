import Chronology
import Synchronization

/// Paces requests per endpoint and environment so that all concurrent callers together stay
/// within the App Store's rate limits, slows down when the server answers 429, and recovers
/// gradually.
///
/// Pacing is a generic cell rate algorithm: each (endpoint, environment) keeps the theoretical
/// arrival time of its next request; a caller reserves the next slot under a mutex and then
/// sleeps outside it until its slot. Reservations are first come, first served, cost no polling,
/// and a slot once handed out is never handed out again, however many tasks ask at once.
///
/// Thread safety: one limiter is shared by every request of a client.
public final class EndpointRateLimiter: Sendable {
  private struct Key: Hashable {
    let endpoint: Endpoint
    let environment: AppStoreEnvironment
  }

  private struct Pace {
    /// The theoretical arrival time of the next request, in milliseconds.
    var nextArrival: Double = -.infinity
    /// The share of the configured limit currently used, lowered by 429s.
    var share: Double = 1
    /// The second (of the Unix epoch) the latest slot fell in, and how many slots fell in it.
    var second: Int64 = .min
    var inSecond = 0
    /// The most slots any one second held: the measured rate, beside the cap.
    var busiestSecond = 0
  }

  /// The limits in force.
  public let limits: RateLimits
  private let now: @Sendable () -> Timestamp
  private let paces = Mutex<[Key: Pace]>([:])

  /// A limiter for `limits`, reading the time from `now`.
  ///
  /// - Parameters:
  ///   - limits: The limits and the reaction to 429.
  ///   - now: The wall clock.
  public init(limits: RateLimits, now: @escaping @Sendable () -> Timestamp) {
    self.limits = limits
    self.now = now
  }

  /// A slot asked for with a latest acceptable instant.
  public enum Reservation: Sendable, Hashable {
    /// The slot is reserved; the request may go at this instant.
    case granted(Timestamp)
    /// The next slot comes only at this instant, after the latest acceptable one; nothing was
    /// reserved.
    case tooLate(Timestamp)
  }

  /// Reserves the next slot for a request and returns when it may be sent.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint to call.
  ///   - environment: The environment to call.
  /// - Returns: The instant at which the request may go; now or later.
  public func reserve(_ endpoint: Endpoint, in environment: AppStoreEnvironment) -> Timestamp {
    switch reserve(endpoint, in: environment, notAfter: nil) {
    case .granted(let slot), .tooLate(let slot): slot
    }
  }

  /// Reserves the next slot for a request if it comes no later than `latest`.
  ///
  /// A slot later than `latest` is not reserved, so a caller that gives up leaves the pace of
  /// the others as it was: after a 429 whose `Retry-After` lies a day ahead, every caller learns
  /// so at once instead of queueing behind it.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint to call.
  ///   - environment: The environment to call.
  ///   - latest: The latest instant the caller can wait for, or `nil` for any.
  /// - Returns: The reserved slot, or the slot that would have been and was not reserved.
  public func reserve(
    _ endpoint: Endpoint, in environment: AppStoreEnvironment, notAfter latest: Timestamp?
  ) -> Reservation {
    let instant = Double(now().millisecondsSince1970)
    let limit = limits.requestsPerSecond(for: endpoint, in: environment)
    let burst = Double(max(1, limits.burst))
    let bound = latest.map { Double($0.millisecondsSince1970) }
    let (scheduled, reserved) = paces.withLock { paces in
      var pace = paces[Key(endpoint: endpoint, environment: environment)] ?? Pace()
      let interval = 1000 / (limit * pace.share)
      let tolerance = (burst - 1) * interval
      let arrival = max(pace.nextArrival, instant)
      let scheduled = max(instant, arrival - tolerance)
      if let bound, scheduled > bound { return (scheduled, false) }
      pace.nextArrival = arrival + interval
      let second = Int64((scheduled / 1000).rounded(.down))
      if second == pace.second {
        pace.inSecond += 1
      } else {
        pace.second = second
        pace.inSecond = 1
      }
      pace.busiestSecond = max(pace.busiestSecond, pace.inSecond)
      paces[Key(endpoint: endpoint, environment: environment)] = pace
      return (scheduled, true)
    }
    let slot = Timestamp(millisecondsSince1970: Self.milliseconds(scheduled))
    return reserved ? .granted(slot) : .tooLate(slot)
  }

  /// A computed instant as whole milliseconds: rounded to the nearest (the clock has no finer
  /// grain, and rounding up would add a needless wait to every request of a very fast limit),
  /// and held within 64 bits — a `Retry-After` is the server's number, and `Int64(Double)`
  /// traps beyond them.
  static func milliseconds(_ value: Double) -> Int64 {
    let rounded = value.rounded()
    guard rounded < 9_223_372_036_854_775_807.0 else { return .max }
    guard rounded > -9_223_372_036_854_775_808.0 else { return .min }
    return Int64(rounded)
  }

  /// Waits for the next slot of `endpoint` in `environment`.
  ///
  /// A caller woken more than one interval after its slot (a busy machine) takes a new slot
  /// instead of going at once: the requests reserved after it are due then too, and going
  /// together they would exceed the rate the server sees. At most three new slots are taken.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint to call.
  ///   - environment: The environment to call.
  ///   - sleep: Sleeps for a number of milliseconds.
  /// - Throws: What `sleep` throws (`CancellationError` when the task is cancelled).
  public func acquire(
    _ endpoint: Endpoint, in environment: AppStoreEnvironment,
    sleep: @Sendable (Int64) async throws -> Void
  ) async throws {
    var slot = reserve(endpoint, in: environment)
    for _ in 0..<3 {
      let wait = slot.milliseconds(since: now())
      if wait > 0 { try await sleep(wait) }
      let interval = 1000 / currentRate(of: endpoint, in: environment)
      guard Double(now().milliseconds(since: slot)) > interval else { return }
      slot = reserve(endpoint, in: environment)
    }
  }

  /// Slows `endpoint` down after a 429 and holds every request back until `retryAfter`.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint that answered 429.
  ///   - environment: The environment that answered.
  ///   - retryAfter: The instant the server named, or `nil` for one second from now.
  public func recordRateLimited(
    _ endpoint: Endpoint, in environment: AppStoreEnvironment, retryAfter: Timestamp?
  ) {
    let instant = now()
    let resume = Double(
      (retryAfter ?? instant.adding(milliseconds: Timestamp.millisecondsPerSecond))
        .millisecondsSince1970)
    let limit = limits.requestsPerSecond(for: endpoint, in: environment)
    let burst = Double(max(1, limits.burst))
    paces.withLock { paces in
      let key = Key(endpoint: endpoint, environment: environment)
      var pace = paces[key] ?? Pace()
      pace.share = max(limits.minimumShare, pace.share * limits.slowdownFactor)
      let interval = 1000 / (limit * pace.share)
      // The next slot is at `resume` itself, and the ones after it paced: no burst right after
      // the server said to stop.
      pace.nextArrival = max(pace.nextArrival, resume + (burst - 1) * interval)
      paces[key] = pace
    }
  }

  /// Lets `endpoint` regain some of its rate after a success.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint that answered.
  ///   - environment: The environment that answered.
  public func recordSuccess(_ endpoint: Endpoint, in environment: AppStoreEnvironment) {
    paces.withLock { paces in
      let key = Key(endpoint: endpoint, environment: environment)
      guard var pace = paces[key], pace.share < 1 else { return }
      pace.share = min(1, pace.share + limits.recoveryPerSuccess)
      paces[key] = pace
    }
  }

  /// The most requests of `endpoint` that went in any one second of the clock (each attempt
  /// counts, retries included): the rate measured, to be shown beside the cap.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint.
  ///   - environment: The environment.
  /// - Returns: Requests in the busiest second; 0 when none went.
  public func busiestSecond(of endpoint: Endpoint, in environment: AppStoreEnvironment) -> Int {
    paces.withLock { $0[Key(endpoint: endpoint, environment: environment)]?.busiestSecond ?? 0 }
  }

  /// The rate `endpoint` is paced at now, in requests per second.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint.
  ///   - environment: The environment.
  /// - Returns: The configured limit times the current share.
  public func currentRate(of endpoint: Endpoint, in environment: AppStoreEnvironment) -> Double {
    let share = paces.withLock {
      $0[Key(endpoint: endpoint, environment: environment)]?.share ?? 1
    }
    return limits.requestsPerSecond(for: endpoint, in: environment) * share
  }
}
