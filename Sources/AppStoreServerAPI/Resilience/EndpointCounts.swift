import JSON

/// What happened on one endpoint: requests sent, how calls ended, retries, 429s and errors.
public struct EndpointCounts: Sendable, Hashable {
  /// HTTP requests sent (every attempt).
  public var requests: Int = 0
  /// Calls that ended in success.
  public var successes: Int = 0
  /// Calls that ended in an error (after any retries).
  public var failures: Int = 0
  /// Attempts repeated after a retryable failure.
  public var retries: Int = 0
  /// Answers with HTTP 429.
  public var rateLimited: Int = 0
  /// Attempts that got no complete answer.
  public var transportErrors: Int = 0
  /// Answers whose signed data failed verification.
  public var verificationFailures: Int = 0
  /// Error answers by HTTP status.
  public var errorsByStatus: [Int: Int] = [:]
  /// Error answers by Apple error code.
  public var errorsByCode: [Int64: Int] = [:]

  /// Empty counts.
  public init() {}

  /// Writes the counts as a JSON object with stable key order, for `run.json`.
  ///
  /// - Parameter writer: The destination.
  public func write(to writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("requests", requests)
    writer.field("successes", successes)
    writer.field("failures", failures)
    writer.field("retries", retries)
    writer.field("rate_limited", rateLimited)
    writer.field("transport_errors", transportErrors)
    writer.field("verification_failures", verificationFailures)
    writer.key("errors_by_status")
    writer.beginObject()
    for (status, count) in errorsByStatus.sorted(by: { $0.key < $1.key }) {
      writer.field(String(status), count)
    }
    writer.endObject()
    writer.key("errors_by_code")
    writer.beginObject()
    for (code, count) in errorsByCode.sorted(by: { $0.key < $1.key }) {
      writer.field(String(code), count)
    }
    writer.endObject()
    writer.endObject()
  }
}
