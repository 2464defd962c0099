/// The faults one endpoint acts out: a probability per fault kind, and added latency.
public struct EndpointFaults: Sendable, Hashable {
  /// The probability of each fault per request, each in `0...1`, together at most 1.
  public var rates: [FaultKind: Double]
  /// The added latency, or `nil` for none.
  public var latency: LatencyDistribution?

  /// Creates an endpoint's faults.
  ///
  /// - Parameters:
  ///   - rates: the probability of each fault.
  ///   - latency: the added latency.
  public init(rates: [FaultKind: Double] = [:], latency: LatencyDistribution? = nil) {
    self.rates = rates
    self.latency = latency
  }

  /// The probability that a request meets some fault.
  public var totalRate: Double { rates.values.reduce(0, +) }

  /// Whether the endpoint answers normally, at once, every time.
  public var isEmpty: Bool { totalRate == 0 && latency == nil }
}
