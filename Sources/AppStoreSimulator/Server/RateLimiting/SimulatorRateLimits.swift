import AppStoreServerAPI
import Foundation

/// The simulator's rate limits per endpoint and environment: Apple's documented requests per
/// second by default, the sandbox at 10 % of them, counted per second or per hour.
public struct SimulatorRateLimits: Sendable, Hashable {
  /// How requests are counted against a limit.
  public enum Mode: Sendable, Hashable, CustomStringConvertible {
    /// A token bucket holding one second of requests (at least one), refilled continuously:
    /// bursts above the rate are answered 429 at once.
    case perSecond
    /// A budget of 3600 seconds of requests per hour, which can be spent in a burst; Apple says
    /// its limits are "enforced on an hourly basis" without saying how the hour is counted.
    case hourly(HourlyWindow)

    /// `per-second`, `hourly` or `hourly-rolling`, as the specification writes it.
    public var description: String {
      switch self {
      case .perSecond: "per-second"
      case .hourly(.clockHour): "hourly"
      case .hourly(.rolling): "hourly-rolling"
      }
    }
  }

  /// Where an hourly window starts (unconfirmed, so a setting).
  public enum HourlyWindow: String, Sendable, Hashable, CaseIterable {
    /// Windows are the hours of the clock, 00:00 to 01:00 UTC and so on.
    case clockHour = "clock-hour"
    /// A window starts with the first request after the previous one ended.
    case rolling
  }

  /// Whether limits are enforced at all; benchmarks turn them off.
  public var isEnabled: Bool
  /// How requests are counted.
  public var mode: Mode
  /// Production requests per second by endpoint; an endpoint not listed gets Apple's documented
  /// rate.
  public var production: [Endpoint: Double]
  /// Sandbox requests per second by endpoint; an endpoint not listed gets `sandboxShare` of its
  /// production rate.
  public var sandbox: [Endpoint: Double]
  /// The sandbox's share of the production rate, 0.1 by default.
  public var sandboxShare: Double

  /// Creates limits; every parameter has the default described on its property.
  ///
  /// - Parameters:
  ///   - isEnabled: whether limits are enforced.
  ///   - mode: how requests are counted.
  ///   - production: production rates that differ from Apple's.
  ///   - sandbox: sandbox rates that differ from the share of production.
  ///   - sandboxShare: the sandbox's share of the production rate.
  public init(
    isEnabled: Bool = true, mode: Mode = .perSecond, production: [Endpoint: Double] = [:],
    sandbox: [Endpoint: Double] = [:], sandboxShare: Double = 0.1
  ) {
    self.isEnabled = isEnabled
    self.mode = mode
    self.production = production
    self.sandbox = sandbox
    self.sandboxShare = sandboxShare
  }

  /// Apple's documented limits, counted per second.
  public static let appleDefaults = SimulatorRateLimits()

  /// No limits at all.
  public static let off = SimulatorRateLimits(isEnabled: false)

  /// The limit of one endpoint in one environment.
  ///
  /// - Parameters:
  ///   - endpoint: the endpoint.
  ///   - environment: the environment.
  /// - Returns: requests per second.
  public func requestsPerSecond(for endpoint: Endpoint, in environment: SimulatedEnvironment)
    -> Double
  {
    let productionRate = production[endpoint] ?? endpoint.documentedRequestsPerSecond
    switch environment {
    case .production: return productionRate
    case .sandbox: return sandbox[endpoint] ?? productionRate * sandboxShare
    }
  }

  // MARK: - Specification

  /// Reads a `--rate-limit` specification: `off`, or comma-separated items among a mode
  /// (`per-second`, `hourly`, `hourly-rolling`), `ENDPOINT=RATE` (production requests per
  /// second), `sandbox:ENDPOINT=RATE` and `sandbox-share=FRACTION`.
  ///
  /// For example `hourly,history=100,status=100,sandbox-share=0.5`.
  ///
  /// - Parameter specification: the text.
  /// - Returns: the limits, starting from Apple's defaults.
  /// - Throws: `SimulatorSpecificationError` naming the item that cannot be read.
  public static func parse(_ specification: String) throws(SimulatorSpecificationError)
    -> SimulatorRateLimits
  {
    var limits = SimulatorRateLimits.appleDefaults
    let syntax =
      "write off, or items among per-second, hourly, hourly-rolling, ENDPOINT=RATE, "
      + "sandbox:ENDPOINT=RATE and sandbox-share=FRACTION, separated by commas"
    for rawItem in specification.split(separator: ",") {
      let item = rawItem.trimmingCharacters(in: .whitespaces).lowercased()
      switch item {
      case "off", "none":
        limits.isEnabled = false
        continue
      case "per-second":
        limits.mode = .perSecond
        continue
      case "hourly":
        limits.mode = .hourly(.clockHour)
        continue
      case "hourly-rolling":
        limits.mode = .hourly(.rolling)
        continue
      default: break
      }
      let parts = item.split(separator: "=", omittingEmptySubsequences: false)
      guard parts.count == 2, let rate = Double(parts[1]), rate.isFinite, rate > 0 else {
        throw SimulatorSpecificationError(
          "\"\(item)\" in the rate limit \"\(specification)\" cannot be read; \(syntax), with "
            + "positive numbers")
      }
      let name = String(parts[0])
      if name == "sandbox-share" {
        limits.sandboxShare = rate
      } else if name.hasPrefix("sandbox:") {
        let endpoint = try EndpointNames.endpoint(
          named: String(name.dropFirst("sandbox:".count)), in: specification)
        limits.sandbox[endpoint] = rate
      } else {
        limits.production[try EndpointNames.endpoint(named: name, in: specification)] = rate
      }
    }
    return limits
  }
}
