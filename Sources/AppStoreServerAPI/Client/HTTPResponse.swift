/// One HTTP answer as an ``HTTPTransport`` returns it.
public struct HTTPResponse: Sendable, Hashable {
  /// The status code.
  public var status: Int

  /// Header fields, names in lowercase.
  public var headers: [String: String]

  /// The complete body.
  public var body: [UInt8]

  /// An answer from its parts.
  ///
  /// - Parameters:
  ///   - status: The status code.
  ///   - headers: Header fields; names are lowercased.
  ///   - body: The body.
  public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
    self.status = status
    self.headers = Dictionary(
      headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    self.body = body
  }

  /// The value of a header, by case-insensitive name.
  ///
  /// - Parameter name: The header name.
  public subscript(header name: String) -> String? {
    headers[name.lowercased()]
  }
}
