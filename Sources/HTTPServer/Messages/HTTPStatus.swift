/// The status of an HTTP response: a three-digit code and its reason phrase.
///
/// Two statuses are equal when their codes are equal; the reason phrase is decoration that
/// clients ignore (RFC 9112 §4).
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
  /// The three-digit status code, for example 200.
  public let code: Int
  /// The reason phrase sent after the code, for example `OK`.
  public let reasonPhrase: String

  /// Creates a status; without a reason phrase, the standard one for the code is used.
  ///
  /// A handler may only send final statuses (200–599); anything else is replaced by a 500 that
  /// names the offending code.
  ///
  /// - Parameters:
  ///   - code: The three-digit status code.
  ///   - reasonPhrase: The phrase to send, or `nil` for the standard phrase of `code` (empty for a
  ///     code without one).
  public init(code: Int, reasonPhrase: String? = nil) {
    self.code = code
    self.reasonPhrase = reasonPhrase ?? HTTPStatus.standardReasonPhrase(for: code)
  }

  /// The code and phrase, for example `404 Not Found`.
  public var description: String { reasonPhrase.isEmpty ? "\(code)" : "\(code) \(reasonPhrase)" }

  /// Compares the status codes only.
  ///
  /// - Parameters:
  ///   - lhs: A status.
  ///   - rhs: Another status.
  /// - Returns: Whether both have the same code.
  public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool {
    lhs.code == rhs.code
  }

  /// Hashes the status code only, matching `==`.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
  }

  // MARK: - Standard statuses

  /// 200 OK.
  public static let ok = HTTPStatus(code: 200)
  /// 201 Created.
  public static let created = HTTPStatus(code: 201)
  /// 202 Accepted.
  public static let accepted = HTTPStatus(code: 202)
  /// 204 No Content: the server sends neither a body nor a `Content-Length`.
  public static let noContent = HTTPStatus(code: 204)
  /// 304 Not Modified: the server sends neither a body nor a `Content-Length`.
  public static let notModified = HTTPStatus(code: 304)
  /// 400 Bad Request.
  public static let badRequest = HTTPStatus(code: 400)
  /// 401 Unauthorized.
  public static let unauthorized = HTTPStatus(code: 401)
  /// 403 Forbidden.
  public static let forbidden = HTTPStatus(code: 403)
  /// 404 Not Found.
  public static let notFound = HTTPStatus(code: 404)
  /// 405 Method Not Allowed.
  public static let methodNotAllowed = HTTPStatus(code: 405)
  /// 408 Request Timeout.
  public static let requestTimeout = HTTPStatus(code: 408)
  /// 413 Content Too Large: the request body is over the configured limit.
  public static let contentTooLarge = HTTPStatus(code: 413)
  /// 417 Expectation Failed: the request's `Expect` header asks for something other than
  /// `100-continue`.
  public static let expectationFailed = HTTPStatus(code: 417)
  /// 429 Too Many Requests.
  public static let tooManyRequests = HTTPStatus(code: 429)
  /// 431 Request Header Fields Too Large: the request line and headers are over the limit.
  public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
  /// 500 Internal Server Error.
  public static let internalServerError = HTTPStatus(code: 500)
  /// 501 Not Implemented: also the answer to a transfer coding other than `chunked`.
  public static let notImplemented = HTTPStatus(code: 501)
  /// 502 Bad Gateway.
  public static let badGateway = HTTPStatus(code: 502)
  /// 503 Service Unavailable.
  public static let serviceUnavailable = HTTPStatus(code: 503)
  /// 504 Gateway Timeout.
  public static let gatewayTimeout = HTTPStatus(code: 504)
  /// 505 HTTP Version Not Supported.
  public static let httpVersionNotSupported = HTTPStatus(code: 505)

  // MARK: - Reason phrases

  private static func standardReasonPhrase(for code: Int) -> String {
    switch code {
    case 100: "Continue"
    case 200: "OK"
    case 201: "Created"
    case 202: "Accepted"
    case 204: "No Content"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 304: "Not Modified"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 413: "Content Too Large"
    case 415: "Unsupported Media Type"
    case 417: "Expectation Failed"
    case 422: "Unprocessable Content"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 505: "HTTP Version Not Supported"
    default: ""
    }
  }
}
