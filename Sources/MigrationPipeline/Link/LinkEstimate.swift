import AppStoreServerAPI

/// How long a `link --apply` takes at least at Apple's rates: every write through Set App
/// Account Token, and one history call per customer asked again before its writes, each
/// endpoint and environment paced by its own limit (so the slowest of them sets the pace).
public struct LinkEstimate: Sendable, Hashable {
  /// Writes to send, by environment.
  public var writes: [AppStoreEnvironment: Int]
  /// Customers to ask again, by environment.
  public var customers: [AppStoreEnvironment: Int]
  /// The limits the client paces requests by.
  public var limits: RateLimits

  /// The estimate of writes.
  ///
  /// - Parameters:
  ///   - writes: the writes to send (their environments and customers).
  ///   - limits: the client's limits (Apple's documented ones by default).
  public init(writes: [(environment: String, customerId: Int64?)], limits: RateLimits) {
    var byEnvironment: [AppStoreEnvironment: Int] = [:]
    var customers: [AppStoreEnvironment: Set<Int64>] = [:]
    for write in writes {
      let environment = AppStoreEnvironment.named(write.environment) ?? .production
      byEnvironment[environment, default: 0] += 1
      if let customer = write.customerId { customers[environment, default: []].insert(customer) }
    }
    self.writes = byEnvironment
    self.customers = customers.mapValues(\.count)
    self.limits = limits
  }

  /// One endpoint's share: its requests in an environment and its limit there.
  public struct Pace: Sendable, Hashable {
    /// The endpoint.
    public var endpoint: Endpoint
    /// The environment.
    public var environment: AppStoreEnvironment
    /// Requests.
    public var requests: Int
    /// Its limit, in requests per second.
    public var perSecond: Double

    /// How long the requests take at the limit, in seconds.
    public var seconds: Double { Double(requests) / perSecond }
  }

  /// Each endpoint's and environment's requests and limit, production first.
  public var paces: [Pace] {
    var paces: [Pace] = []
    for environment in [AppStoreEnvironment.production, .sandbox] {
      for (endpoint, counts) in [
        (Endpoint.setAppAccountToken, writes), (Endpoint.transactionHistory, customers),
      ] {
        guard let count = counts[environment], count > 0 else { continue }
        paces.append(
          Pace(
            endpoint: endpoint, environment: environment, requests: count,
            perSecond: limits.requestsPerSecond(for: endpoint, in: environment)))
      }
    }
    return paces
  }

  /// The least time the run takes, in seconds: the slowest endpoint's.
  public var seconds: Double { paces.map(\.seconds).max() ?? 0 }
}
