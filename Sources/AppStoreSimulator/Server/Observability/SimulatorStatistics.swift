import AppStoreServerAPI
import HTTPServer

/// Counters of everything a `SimulatorServer` has answered since it started, per environment
/// and endpoint, with the HTTP statistics of both listeners.
///
/// Each counter is exact; a snapshot taken while requests are in flight is not one instant
/// across counters.
public struct SimulatorStatistics: Sendable {
  /// Counters of one endpoint in one environment.
  public struct Key: Hashable, Sendable {
    /// The environment.
    public var environment: SimulatedEnvironment
    /// The endpoint, or `nil` for requests to paths that are no endpoint.
    public var endpoint: Endpoint?

    /// Creates a key.
    ///
    /// - Parameters:
    ///   - environment: the environment.
    ///   - endpoint: the endpoint.
    public init(environment: SimulatedEnvironment, endpoint: Endpoint?) {
      self.environment = environment
      self.endpoint = endpoint
    }
  }

  /// The counters that have seen at least one request.
  public var endpoints: [Key: SimulatorEndpointCounters]
  /// The production listener's HTTP statistics.
  public var productionHTTP: HTTPServerStatistics
  /// The sandbox listener's HTTP statistics.
  public var sandboxHTTP: HTTPServerStatistics
  /// How many signed values the server holds in its cache.
  public var cachedSignedValues: Int

  /// Creates statistics.
  ///
  /// - Parameters:
  ///   - endpoints: the counters.
  ///   - productionHTTP: the production listener's statistics.
  ///   - sandboxHTTP: the sandbox listener's statistics.
  ///   - cachedSignedValues: the signing cache's size.
  public init(
    endpoints: [Key: SimulatorEndpointCounters], productionHTTP: HTTPServerStatistics,
    sandboxHTTP: HTTPServerStatistics, cachedSignedValues: Int
  ) {
    self.endpoints = endpoints
    self.productionHTTP = productionHTTP
    self.sandboxHTTP = sandboxHTTP
    self.cachedSignedValues = cachedSignedValues
  }

  /// The counters of one endpoint, summed over the given environments.
  ///
  /// - Parameters:
  ///   - endpoint: the endpoint, or `nil` for requests to paths that are no endpoint.
  ///   - environments: the environments to add up; both by default.
  /// - Returns: the counters.
  public func counters(
    for endpoint: Endpoint?,
    in environments: [SimulatedEnvironment] = SimulatedEnvironment.allCases
  ) -> SimulatorEndpointCounters {
    var total = SimulatorEndpointCounters()
    for environment in environments {
      guard let counters = endpoints[Key(environment: environment, endpoint: endpoint)] else {
        continue
      }
      total.requests += counters.requests
      total.statuses.merge(counters.statuses, uniquingKeysWith: +)
      total.errorCodes.merge(counters.errorCodes, uniquingKeysWith: +)
      total.faults.merge(counters.faults, uniquingKeysWith: +)
      total.tokenRejections.merge(counters.tokenRejections, uniquingKeysWith: +)
    }
    return total
  }

  /// Requests received by every endpoint in both environments.
  public var totalRequests: Int { endpoints.values.reduce(0) { $0 + $1.requests } }
}
