/// An HTTP request method such as `GET` or `POST`.
///
/// Methods are case-sensitive tokens (RFC 9110 §9.1): `get` is a different, unknown method, not a
/// spelling of `GET`. Any token the parser accepts arrives here unchanged, so a handler can answer
/// 405 or 501 for methods it does not implement.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The method token exactly as it appeared on the request line.
  public let rawValue: String

  /// Wraps a method token.
  ///
  /// - Parameter rawValue: The token, for example `"GET"`.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// The method token, for logs.
  public var description: String { rawValue }

  // MARK: - Common methods

  /// `GET`: retrieve a resource.
  public static let get = HTTPMethod(rawValue: "GET")
  /// `HEAD`: like `GET`, but the server sends no body.
  public static let head = HTTPMethod(rawValue: "HEAD")
  /// `POST`: submit data to a resource.
  public static let post = HTTPMethod(rawValue: "POST")
  /// `PUT`: replace a resource.
  public static let put = HTTPMethod(rawValue: "PUT")
  /// `PATCH`: partially modify a resource.
  public static let patch = HTTPMethod(rawValue: "PATCH")
  /// `DELETE`: remove a resource.
  public static let delete = HTTPMethod(rawValue: "DELETE")
  /// `OPTIONS`: describe the communication options of a resource.
  public static let options = HTTPMethod(rawValue: "OPTIONS")
}
