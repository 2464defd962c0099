/// A request that got no complete HTTP answer.
public enum TransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// No answer within the timeout.
  case timedOut
  /// The connection was reset or lost mid-request.
  case connectionReset
  /// The body ended before its announced length (or inside a JSON value).
  case truncatedBody(detail: String)
  /// No connection could be made (refused, unresolvable host, a TLS handshake cut short).
  case cannotConnect(detail: String)
  /// The server's TLS certificate was rejected: not trusted, for another host, expired. Sending
  /// again meets the same certificate, so it is not retried.
  case certificateRejected(detail: String)
  /// Any other transport failure, described by the transport.
  case other(detail: String)

  /// A sentence naming the failure.
  public var description: String {
    switch self {
    case .timedOut: "no answer before the timeout"
    case .connectionReset: "the connection was reset or lost"
    case .truncatedBody(let detail): "the response body was truncated (\(detail))"
    case .cannotConnect(let detail): "cannot connect (\(detail))"
    case .certificateRejected(let detail):
      "the server's TLS certificate was rejected (\(detail)); not retried: check the URL, the "
        + "machine's trust store and clock"
    case .other(let detail): "transport failure (\(detail))"
    }
  }

  /// Whether sending the request again may get an answer: every failure but a rejected
  /// certificate.
  public var isRetryable: Bool {
    if case .certificateRejected = self { return false }
    return true
  }
}
