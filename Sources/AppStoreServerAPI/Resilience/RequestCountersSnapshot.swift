import JSON

/// The request counters at one moment, per endpoint.
public struct RequestCountersSnapshot: Sendable, Hashable {
  /// Counts per endpoint that was called.
  public var endpoints: [Endpoint: EndpointCounts]

  /// A snapshot of the given counts.
  ///
  /// - Parameter endpoints: Counts per endpoint.
  public init(endpoints: [Endpoint: EndpointCounts]) {
    self.endpoints = endpoints
  }

  /// The counts of `endpoint` (zero when it was not called).
  ///
  /// - Parameter endpoint: The endpoint.
  public subscript(endpoint: Endpoint) -> EndpointCounts {
    endpoints[endpoint] ?? EndpointCounts()
  }

  /// Requests sent to all endpoints together.
  public var totalRequests: Int { endpoints.values.reduce(0) { $0 + $1.requests } }

  /// Writes `{"<endpoint>": {...}, ...}` in declaration order of the endpoints, for `run.json`.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    for endpoint in endpoints.keys.sorted() {
      writer.key(endpoint.rawValue)
      self[endpoint].write(to: &writer)
    }
    writer.endObject()
  }
}
