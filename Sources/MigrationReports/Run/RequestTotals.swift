/// The request counters of several endpoints added up.
struct RequestTotals: Hashable, Sendable {
  var requests = 0
  var successes = 0
  var failures = 0
  var retries = 0
  var rateLimited = 0
  var transportErrors = 0
  var verificationFailures = 0

  init(_ endpoints: [EndpointStatistics]) {
    for endpoint in endpoints {
      requests += endpoint.requests
      successes += endpoint.successes
      failures += endpoint.failures
      retries += endpoint.retries
      rateLimited += endpoint.rateLimited
      transportErrors += endpoint.transportErrors
      verificationFailures += endpoint.verificationFailures
    }
  }

  init(_ endpoint: EndpointStatistics) { self.init([endpoint]) }
}
