import AppStoreServerAPI
import Foundation

/// Which faults the simulator acts out, on which endpoints and how often.
///
/// Faults for all endpoints apply unless an endpoint sets its own: an endpoint's rate for a
/// fault kind replaces the all-endpoints rate for that kind, and its latency replaces the
/// all-endpoints latency.
public struct FaultPlan: Sendable, Hashable {
  /// Faults for every endpoint.
  public var allEndpoints: EndpointFaults
  /// Faults for particular endpoints.
  public var endpoints: [Endpoint: EndpointFaults]
  /// How far after the wall clock the `Retry-After` of a ``FaultKind/distantRetryAfter`` fault
  /// lies, in milliseconds: 24 hours unless set.
  public var retryAfterDelay: Int64

  /// The default ``retryAfterDelay``: a day, longer than any nightly run lasts.
  public static let defaultRetryAfterDelay: Int64 = 24 * 3_600_000

  /// Creates a plan.
  ///
  /// - Parameters:
  ///   - allEndpoints: faults for every endpoint.
  ///   - endpoints: faults for particular endpoints.
  ///   - retryAfterDelay: how far ahead a `retry-after` fault's `Retry-After` lies, in
  ///     milliseconds.
  public init(
    allEndpoints: EndpointFaults = EndpointFaults(), endpoints: [Endpoint: EndpointFaults] = [:],
    retryAfterDelay: Int64 = FaultPlan.defaultRetryAfterDelay
  ) {
    self.allEndpoints = allEndpoints
    self.endpoints = endpoints
    self.retryAfterDelay = retryAfterDelay
  }

  /// No faults and no added latency.
  public static let none = FaultPlan()

  /// The faults one endpoint acts out, the all-endpoints settings merged with its own.
  ///
  /// - Parameter endpoint: the endpoint.
  /// - Returns: its faults.
  public func faults(for endpoint: Endpoint) -> EndpointFaults {
    guard let own = endpoints[endpoint] else { return allEndpoints }
    return EndpointFaults(
      rates: allEndpoints.rates.merging(own.rates) { _, endpointRate in endpointRate },
      latency: own.latency ?? allEndpoints.latency)
  }

  /// Checks every rate is a probability and no endpoint's rates add up to more than 1.
  ///
  /// - Throws: `SimulatorSpecificationError` naming the endpoint.
  public func validate() throws(SimulatorSpecificationError) {
    guard retryAfterDelay >= 0 else {
      throw SimulatorSpecificationError(
        "the retry-after fault's delay is \(retryAfterDelay) ms; it must be 0 or more")
    }
    for endpoint in Endpoint.allCases {
      let faults = faults(for: endpoint)
      for (kind, rate) in faults.rates where !(0...1).contains(rate) {
        throw SimulatorSpecificationError(
          "the \(kind) fault rate of \(EndpointNames.shortName(endpoint)) is \(rate); a rate is "
            + "a probability between 0 and 1")
      }
      guard faults.totalRate <= 1 + 1e-9 else {
        throw SimulatorSpecificationError(
          "the fault rates of \(EndpointNames.shortName(endpoint)) add up to "
            + "\(faults.totalRate); at most one fault happens per request, so they must add up "
            + "to 1 or less")
      }
    }
  }

  // MARK: - Specification

  /// Reads `--faults` and `--latency` specifications.
  ///
  /// Faults are comma-separated `[ENDPOINT:]KIND=RATE` items, such as
  /// `history:drop=0.05,status:5000001=0.1,truncate=1%`; latencies are comma-separated
  /// `[ENDPOINT:]DISTRIBUTION` items, such as `20ms±5ms,history:50ms~10ms`. An item without an
  /// endpoint applies to all of them.
  ///
  /// - Parameters:
  ///   - faults: the fault specification, or `nil`.
  ///   - latency: the latency specification, or `nil`.
  /// - Returns: the plan, validated.
  /// - Throws: `SimulatorSpecificationError` naming the item that cannot be read.
  public static func parse(faults: String?, latency: String?) throws(SimulatorSpecificationError)
    -> FaultPlan
  {
    var plan = FaultPlan()
    for item in items(faults) {
      let (endpoint, rest) = try split(item, in: faults ?? "")
      let parts = rest.split(separator: "=", omittingEmptySubsequences: false)
      let kinds = FaultKind.allCases.map(\.rawValue).joined(separator: ", ")
      guard parts.count == 2, let kind = FaultKind.named(String(parts[0])) else {
        throw SimulatorSpecificationError(
          "\"\(item)\" in the faults \"\(faults ?? "")\" cannot be read; write "
            + "[ENDPOINT:]KIND=RATE with KIND one of \(kinds) (or 500)")
      }
      guard let rate = probability(parts[1]) else {
        throw SimulatorSpecificationError(
          "the rate in \"\(item)\" is not a probability; write a number between 0 and 1, or a "
            + "percentage such as 5%")
      }
      plan.update(endpoint) { $0.rates[kind] = rate }
    }
    for item in items(latency) {
      let (endpoint, rest) = try split(item, in: latency ?? "")
      let distribution = try LatencyDistribution.parse(rest)
      plan.update(endpoint) { $0.latency = distribution }
    }
    try plan.validate()
    return plan
  }

  private mutating func update(_ endpoint: Endpoint?, _ change: (inout EndpointFaults) -> Void) {
    if let endpoint {
      change(&endpoints[endpoint, default: EndpointFaults()])
    } else {
      change(&allEndpoints)
    }
  }

  private static func items(_ specification: String?) -> [String] {
    (specification ?? "").split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }
  }

  private static func split(_ item: String, in specification: String)
    throws(SimulatorSpecificationError) -> (Endpoint?, String)
  {
    guard let colon = item.firstIndex(of: ":") else { return (nil, item) }
    let name = String(item[..<colon])
    let rest = String(item[item.index(after: colon)...])
    if name == "*" || name.lowercased() == "all" { return (nil, rest) }
    return (try EndpointNames.endpoint(named: name, in: specification), rest)
  }

  private static func probability(_ text: Substring) -> Double? {
    let value: Double?
    if text.hasSuffix("%") {
      value = Double(text.dropLast()).map { $0 / 100 }
    } else {
      value = Double(text)
    }
    guard let value, (0...1).contains(value) else { return nil }
    return value
  }
}
