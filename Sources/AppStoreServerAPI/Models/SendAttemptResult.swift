/// The outcome of one attempt to deliver a server notification.
///
/// Values without a typed case survive as ``unknown(_:)``.
public enum SendAttemptResult: OpenEnumeration {
  /// Delivered. (`SUCCESS`)
  case success
  /// The server did not answer in time. (`TIMED_OUT`)
  case timedOut
  /// The TLS handshake failed. (`TLS_ISSUE`)
  case tlsIssue
  /// Redirects looped. (`CIRCULAR_REDIRECT`)
  case circularRedirect
  /// No response. (`NO_RESPONSE`)
  case noResponse
  /// A socket error. (`SOCKET_ISSUE`)
  case socketIssue
  /// The response used an unsupported character set. (`UNSUPPORTED_CHARSET`)
  case unsupportedCharset
  /// The response was invalid. (`INVALID_RESPONSE`)
  case invalidResponse
  /// The connection closed early. (`PREMATURE_CLOSE`)
  case prematureClose
  /// The server answered with a non-2xx status. (`UNSUCCESSFUL_HTTP_RESPONSE_CODE`)
  case unsuccessfulHttpResponseCode
  /// Another failure. (`OTHER`)
  case other
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The value for a raw value as Apple sends it.
  ///
  /// - Parameter rawValue: The raw value.
  public init(rawValue: String) {
    switch rawValue {
    case "SUCCESS": self = .success
    case "TIMED_OUT": self = .timedOut
    case "TLS_ISSUE": self = .tlsIssue
    case "CIRCULAR_REDIRECT": self = .circularRedirect
    case "NO_RESPONSE": self = .noResponse
    case "SOCKET_ISSUE": self = .socketIssue
    case "UNSUPPORTED_CHARSET": self = .unsupportedCharset
    case "INVALID_RESPONSE": self = .invalidResponse
    case "PREMATURE_CLOSE": self = .prematureClose
    case "UNSUCCESSFUL_HTTP_RESPONSE_CODE": self = .unsuccessfulHttpResponseCode
    case "OTHER": self = .other
    default: self = .unknown(rawValue)
    }
  }

  /// The value as Apple sends it.
  public var rawValue: String {
    switch self {
    case .success: "SUCCESS"
    case .timedOut: "TIMED_OUT"
    case .tlsIssue: "TLS_ISSUE"
    case .circularRedirect: "CIRCULAR_REDIRECT"
    case .noResponse: "NO_RESPONSE"
    case .socketIssue: "SOCKET_ISSUE"
    case .unsupportedCharset: "UNSUPPORTED_CHARSET"
    case .invalidResponse: "INVALID_RESPONSE"
    case .prematureClose: "PREMATURE_CLOSE"
    case .unsuccessfulHttpResponseCode: "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    case .other: "OTHER"
    case .unknown(let value): value
    }
  }
}
