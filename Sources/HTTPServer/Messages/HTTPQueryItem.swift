/// One `name=value` pair from a request's query string, percent-decoded.
///
/// A `+` stays a `+`: only `application/x-www-form-urlencoded` bodies give it the meaning of a
/// space, and clients such as `URLComponents` send `+` unescaped in query values.
public struct HTTPQueryItem: Hashable, Sendable {
  /// The decoded name.
  public var name: String
  /// The decoded value; empty for a bare `name` or `name=`.
  public var value: String

  /// Creates a query item.
  ///
  /// - Parameters:
  ///   - name: The decoded name.
  ///   - value: The decoded value.
  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}
