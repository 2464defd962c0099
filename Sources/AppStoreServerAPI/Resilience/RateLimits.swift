/// Requests-per-second limits per endpoint and environment, and how the limiter reacts to 429.
///
/// The defaults are Apple's documented production limits, with sandbox at 10 % of them. Apple may
/// change its limits (and enforces them per hour), so every number is a setting.
public struct RateLimits: Sendable, Hashable {
  /// Production limits per endpoint; endpoints not listed use their documented limit.
  public var production: [Endpoint: Double]

  /// Sandbox limits per endpoint; endpoints not listed use ``sandboxShare`` of production.
  public var sandbox: [Endpoint: Double]

  /// The share of the production limit sandbox gets when not set in ``sandbox``: 0.1.
  public var sandboxShare: Double

  /// The share of every limit this client may use: 1 (all of it) by default. Apple's limits
  /// are per app, shared with everything else that calls the API for the app — the team's live
  /// server included — so a batch job that paces itself to the whole limit leaves the live
  /// server nothing. Applied to every endpoint and environment, configured limits included.
  public var share: Double

  /// How many requests may go at once before pacing starts: 1 paces every request.
  public var burst: Int

  /// The factor the rate is multiplied with on each 429: 0.5.
  public var slowdownFactor: Double

  /// The lowest share of the limit a slowed-down rate falls to: 0.05.
  public var minimumShare: Double

  /// The share of the limit regained with each success after a slowdown: 0.01, so that a rate
  /// halved by a 429 is back in full after 50 successful requests.
  public var recoveryPerSuccess: Double

  /// Limits with Apple's documented defaults and the given adjustments.
  ///
  /// - Parameters:
  ///   - production: Production limits per endpoint (requests per second).
  ///   - sandbox: Sandbox limits per endpoint.
  ///   - sandboxShare: The sandbox share of production for endpoints not in `sandbox`.
  ///   - share: The share of every limit this client may use.
  ///   - burst: Requests allowed at once before pacing.
  ///   - slowdownFactor: Rate multiplier per 429.
  ///   - minimumShare: The floor of a slowed-down rate, as a share of the limit.
  ///   - recoveryPerSuccess: The share of the limit regained per success.
  public init(
    production: [Endpoint: Double] = [:], sandbox: [Endpoint: Double] = [:],
    sandboxShare: Double = 0.1, share: Double = 1, burst: Int = 1, slowdownFactor: Double = 0.5,
    minimumShare: Double = 0.05, recoveryPerSuccess: Double = 0.01
  ) {
    self.production = production
    self.sandbox = sandbox
    self.sandboxShare = sandboxShare
    self.share = share
    self.burst = burst
    self.slowdownFactor = slowdownFactor
    self.minimumShare = minimumShare
    self.recoveryPerSuccess = recoveryPerSuccess
  }

  /// Apple's documented limits.
  public static let appleDefaults = RateLimits()

  /// The rate `endpoint` in `environment` is capped at: the configured limit times ``share``,
  /// in requests per second.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint.
  ///   - environment: The environment; anything but production is limited like sandbox.
  /// - Returns: Requests per second, greater than zero.
  public func requestsPerSecond(for endpoint: Endpoint, in environment: AppStoreEnvironment)
    -> Double
  {
    let productionLimit = production[endpoint] ?? endpoint.documentedRequestsPerSecond
    let limit =
      environment == .production
      ? productionLimit : sandbox[endpoint] ?? productionLimit * sandboxShare
    // A zero or negative setting would stop the run forever; one request a minute is the floor.
    let shared = share.isFinite && share > 0 ? limit * min(share, 1) : limit
    return max(shared, 1.0 / 60.0)
  }
}
