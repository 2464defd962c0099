/// What the requests to one App Store Server API endpoint did during a run.
///
/// A plain copy of the client's per-endpoint counters, so that reports do not depend on the
/// client's types; the field names in `run.json` are the client's (see CHANGELOG.md).
public struct EndpointStatistics: Hashable, Sendable {
  /// The endpoint's stable name, such as `get_transaction_history`.
  public var endpoint: String
  /// HTTP requests sent (every attempt).
  public var requests: Int
  /// Calls that ended in success.
  public var successes: Int
  /// Calls that ended in an error after any retries.
  public var failures: Int
  /// Attempts repeated after a retryable failure.
  public var retries: Int
  /// Answers with HTTP 429 (rate limited).
  public var rateLimited: Int
  /// Attempts that got no complete answer.
  public var transportErrors: Int
  /// Answers whose signed data failed verification.
  public var verificationFailures: Int
  /// Error answers by HTTP status.
  public var errorsByStatus: [Int: Int]
  /// Error answers by Apple error code, such as `4040010`.
  public var errorsByCode: [Int64: Int]
  /// The rate the client was capped at, in requests per second, in the environment of
  /// ``busiestSecond``; `nil` when not recorded.
  public var rateCap: Double?
  /// The most requests that went in any one second (the measured rate, beside ``rateCap``);
  /// `nil` when not recorded.
  public var busiestSecond: Int?

  /// Creates endpoint statistics.
  ///
  /// - Parameters:
  ///   - endpoint: the endpoint's stable name.
  ///   - requests: HTTP requests sent.
  ///   - successes: calls that succeeded.
  ///   - failures: calls that failed after any retries.
  ///   - retries: attempts repeated.
  ///   - rateLimited: answers with HTTP 429.
  ///   - transportErrors: attempts without a complete answer.
  ///   - verificationFailures: answers that failed verification.
  ///   - errorsByStatus: error answers by HTTP status.
  ///   - errorsByCode: error answers by Apple error code.
  public init(
    endpoint: String, requests: Int = 0, successes: Int = 0, failures: Int = 0, retries: Int = 0,
    rateLimited: Int = 0, transportErrors: Int = 0, verificationFailures: Int = 0,
    errorsByStatus: [Int: Int] = [:], errorsByCode: [Int64: Int] = [:]
  ) {
    self.endpoint = endpoint
    self.requests = requests
    self.successes = successes
    self.failures = failures
    self.retries = retries
    self.rateLimited = rateLimited
    self.transportErrors = transportErrors
    self.verificationFailures = verificationFailures
    self.errorsByStatus = errorsByStatus
    self.errorsByCode = errorsByCode
  }

  /// "history 25/s (busiest second 25)": the cap and the measured rate, for people.
  public var rateText: String? {
    guard let rateCap else { return nil }
    return "\(endpoint) \(ReportFormatting.rate(rateCap))/s"
      + (busiestSecond.map { " (busiest second \($0))" } ?? "")
  }
}
