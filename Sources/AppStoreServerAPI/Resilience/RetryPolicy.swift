import Chronology

/// Which failures are retried, how often, and how long to wait between attempts.
///
/// Retried: Apple's "try again" codes (4040002, 4040004, 4040006, 5000001), rate limiting
/// (429), transport failures, and — at most ``maximumServerErrorAttempts`` times — 5000000 and
/// other 5xx answers. Everything else is never retried. Waits grow exponentially with jitter; a
/// `Retry-After` instant from the server replaces the computed wait.
public struct RetryPolicy: Sendable, Hashable {
  /// Attempts in total (the first included) for retryable failures: 5.
  public var maximumAttempts: Int

  /// Attempts in total for 5000000 and 5xx answers without a retryable code: 3.
  public var maximumServerErrorAttempts: Int

  /// Attempts in total when the server keeps answering 429: 10. A 429 asks the client to slow
  /// down, not to give up, and the shared rate limiter slows every request of the endpoint
  /// down with each one, so a request gets more attempts against it than against failures.
  public var maximumRateLimitedAttempts: Int

  /// The wait before the second attempt, in milliseconds: 500.
  public var initialBackoff: Int64

  /// The longest computed wait, in milliseconds: 30 000.
  public var maximumBackoff: Int64

  /// The longest wait for a `Retry-After` instant, or for a turn at the rate limiter that a 429
  /// holds until one, in milliseconds (15 minutes); a later instant ends the call at once with
  /// ``AppStoreAPIError/Kind/waitRefused(until:limit:)``, and the caller's next run asks again.
  public var maximumRetryAfterWait: Int64

  /// A policy with the given bounds.
  ///
  /// - Parameters:
  ///   - maximumAttempts: Attempts in total for retryable failures.
  ///   - maximumServerErrorAttempts: Attempts in total for plain server errors.
  ///   - maximumRateLimitedAttempts: Attempts in total while the server answers 429.
  ///   - initialBackoff: The first wait, in milliseconds.
  ///   - maximumBackoff: The longest computed wait, in milliseconds.
  ///   - maximumRetryAfterWait: The longest `Retry-After` wait, in milliseconds.
  public init(
    maximumAttempts: Int = 5, maximumServerErrorAttempts: Int = 3,
    maximumRateLimitedAttempts: Int = 10, initialBackoff: Int64 = 500,
    maximumBackoff: Int64 = 30_000, maximumRetryAfterWait: Int64 = 15 * 60_000
  ) {
    self.maximumAttempts = maximumAttempts
    self.maximumServerErrorAttempts = maximumServerErrorAttempts
    self.maximumRateLimitedAttempts = maximumRateLimitedAttempts
    self.initialBackoff = initialBackoff
    self.maximumBackoff = maximumBackoff
    self.maximumRetryAfterWait = maximumRetryAfterWait
  }

  /// The defaults described on each property.
  public static let standard = RetryPolicy()

  /// One attempt, never a retry.
  public static let never = RetryPolicy(
    maximumAttempts: 1, maximumServerErrorAttempts: 1, maximumRateLimitedAttempts: 1)

  /// The wait before attempt `attempt` (2 or more) with no `Retry-After`: exponential, capped,
  /// with "equal jitter" (between half and all of the exponential value), so that many clients
  /// that failed together do not retry together.
  ///
  /// - Parameters:
  ///   - attempt: The attempt about to be made, 2 or more.
  ///   - random: A number in `0..<1` from the injected random source.
  /// - Returns: Milliseconds to wait.
  public func backoff(beforeAttempt attempt: Int, random: Double) -> Int64 {
    let exponent = min(max(0, attempt - 2), 30)
    let (product, overflow) = max(0, initialBackoff).multipliedReportingOverflow(
      by: 1 << exponent)
    let exponential = overflow ? maximumBackoff : min(maximumBackoff, product)
    let half = Double(exponential) / 2
    return Int64(half + half * min(max(random, 0), 1))
  }

  /// Whether to try again after `error` on attempt `attempt`, and after how long.
  ///
  /// - Parameters:
  ///   - error: The failure of the attempt.
  ///   - attempt: The attempt that failed, 1 or more.
  ///   - now: The current instant, to turn `Retry-After` into a wait.
  ///   - random: A number in `0..<1` for jitter.
  /// - Returns: Milliseconds to wait before the next attempt, or `nil` to give up.
  public func delay(
    after error: AppStoreAPIError, attempt: Int, now: Timestamp, random: Double
  ) -> Int64? {
    guard case .retry(let wait) = decision(after: error, attempt: attempt, now: now, random: random)
    else { return nil }
    return wait
  }

  /// What to do after `error` on attempt `attempt`: send again after a wait, give up, or give
  /// up because the server's `Retry-After` lies beyond ``maximumRetryAfterWait``.
  ///
  /// - Parameters:
  ///   - error: The failure of the attempt.
  ///   - attempt: The attempt that failed, 1 or more.
  ///   - now: The current instant, to turn `Retry-After` into a wait.
  ///   - random: A number in `0..<1` for jitter.
  /// - Returns: The decision.
  public func decision(
    after error: AppStoreAPIError, attempt: Int, now: Timestamp, random: Double
  ) -> RetryDecision {
    let limit: Int
    switch error.retryClass {
    case .never: return .giveUp
    case .serverError: limit = maximumServerErrorAttempts
    case .retryable: limit = maximumAttempts
    case .rateLimited: limit = maximumRateLimitedAttempts
    }
    guard attempt < limit else { return .giveUp }
    if let retryAfter = error.retryAfter {
      let wait = max(0, retryAfter.milliseconds(since: now))
      return wait <= maximumRetryAfterWait
        ? .retry(afterMilliseconds: wait) : .waitTooLong(until: retryAfter)
    }
    return .retry(afterMilliseconds: backoff(beforeAttempt: attempt + 1, random: random))
  }
}
