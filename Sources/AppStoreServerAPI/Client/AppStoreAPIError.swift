import Chronology

/// A call to the App Store Server API that failed: which endpoint, environment and id, what went
/// wrong, whether a retry can help, and when the server allows one.
///
/// It never holds the request token or the `Authorization` header.
public struct AppStoreAPIError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Sendable, Hashable {
    /// The server answered with an error status: `code` from a JSON error body (`nil` when the
    /// body was not one), and its message.
    case server(status: Int, code: APIErrorCode?, message: String?)
    /// 401: the request token was rejected, even after signing a new one. Apple sends no JSON
    /// body with it.
    case unauthorized
    /// No complete answer arrived.
    case transport(TransportFailure)
    /// An answer arrived but its body is not what the endpoint returns (not JSON, wrong shape).
    case malformedResponse(status: Int, reason: String)
    /// A signed value in the answer failed verification; the answer is not used.
    case verificationFailed(VerificationFailure)
    /// Every environment answered 4040010: the id is unknown to the App Store.
    case notFoundInAnyEnvironment(tried: [AppStoreEnvironment])
    /// The request could not be built (no base URL for the environment, a bad id).
    case invalidRequest(String)
    /// The calling task was cancelled, or the caller asked the client to stop.
    case cancelled
    /// The next attempt could only go at `until` — a `Retry-After` instant, or the turn at the
    /// rate limiter a 429 held back to it — which is after `limit`: the longest wait the policy
    /// allows, or the caller's ``RequestDeadline``. The call is given up without waiting.
    case waitRefused(until: Timestamp, limit: String)
  }

  /// How a failure may be retried.
  public enum RetryClass: Sendable, Hashable {
    /// Never: retrying cannot change the answer.
    case never
    /// A "try again" code or a transport failure: up to the policy's attempts.
    case retryable
    /// 429: after `Retry-After`, up to the policy's attempts.
    case rateLimited
    /// 5000000 or another 5xx: a bounded number of times.
    case serverError
  }

  /// What went wrong.
  public let kind: Kind

  /// The endpoint called.
  public let endpoint: Endpoint

  /// The environment called.
  public let environment: AppStoreEnvironment

  /// The transaction or order id the call was about, if any.
  public let requestedId: String?

  /// When the server allows the next attempt (from `Retry-After`), if it said.
  public let retryAfter: Timestamp?

  /// An error from its parts.
  ///
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - endpoint: The endpoint called.
  ///   - environment: The environment called.
  ///   - requestedId: The id the call was about.
  ///   - retryAfter: The `Retry-After` instant.
  public init(
    _ kind: Kind, endpoint: Endpoint, environment: AppStoreEnvironment,
    requestedId: String? = nil, retryAfter: Timestamp? = nil
  ) {
    self.kind = kind
    self.endpoint = endpoint
    self.environment = environment
    self.requestedId = requestedId
    self.retryAfter = retryAfter
  }

  // MARK: - Classification

  /// The HTTP status of the answer, if one arrived.
  public var httpStatus: Int? {
    switch kind {
    case .server(let status, _, _), .malformedResponse(let status, _): status
    case .unauthorized: 401
    default: nil
    }
  }

  /// Apple's error code, if the answer carried one.
  public var errorCode: APIErrorCode? {
    if case .server(_, let code, _) = kind { return code }
    return nil
  }

  /// Whether the same request may succeed if sent again.
  public var isRetryable: Bool { retryClass != .never }

  /// How the failure may be retried.
  public var retryClass: RetryClass {
    switch kind {
    case .server(let status, let code, _):
      if let code, APIErrorCode.retryableCodes.contains(code) { return .retryable }
      if code == .rateLimitExceeded || status == 429 { return .rateLimited }
      if code == .generalInternal || status >= 500 { return .serverError }
      return .never
    case .transport(let failure): return failure.isRetryable ? .retryable : .never
    case .malformedResponse(let status, _): return status >= 500 ? .serverError : .never
    case .unauthorized, .verificationFailed, .notFoundInAnyEnvironment, .invalidRequest,
      .cancelled, .waitRefused:
      return .never
    }
  }

  /// Whether the environment answered 4040010 (so the other one should be tried).
  public var isTransactionIdNotFound: Bool { errorCode == .transactionIdNotFound }

  // MARK: - Text

  /// The call, what went wrong and what to do next, with anything credential-shaped that the
  /// network sent back removed (see ``SecretScrubber``).
  public var description: String {
    SecretScrubber.scrub(unscrubbedDescription)
  }

  private var unscrubbedDescription: String {
    let call =
      "\(endpoint)" + (requestedId.map { " for \($0)" } ?? "") + " in \(environment.rawValue)"
    let after = retryAfter.map { "; retry after \($0)" } ?? ""
    switch kind {
    case .server(let status, let code, let message):
      let codeText = code.map { ", error \($0)" } ?? ""
      let messageText = message.map { ": \($0)" } ?? ""
      return "\(call) failed with HTTP \(status)\(codeText)\(messageText)\(after)"
    case .unauthorized:
      return "\(call) was refused with HTTP 401 after signing a new token: check ASC_ISSUER_ID, "
        + "ASC_KEY_ID, the key file, APP_BUNDLE_ID and the system clock (an app never released "
        + "in production also gets 401 from production)"
    case .transport(let failure):
      return "\(call) failed: \(failure)\(after)"
    case .malformedResponse(let status, let reason):
      return "\(call) got an unusable HTTP \(status) answer: \(reason)"
    case .verificationFailed(let failure):
      return "\(call) returned signed data that failed verification and was not used: \(failure)"
    case .notFoundInAnyEnvironment(let tried):
      return "\(call): the id is unknown to the App Store (4040010 in "
        + tried.map(\.rawValue).joined(separator: " and ") + "); check the id and the app"
    case .invalidRequest(let reason):
      return "\(call) could not be sent: \(reason)"
    case .cancelled:
      return "\(call) was cancelled"
    case .waitRefused(let until, let limit):
      return "\(call) was given up for this run: its next attempt could go no earlier than "
        + "\(until), after \(limit); a later run asks again"
    }
  }
}
