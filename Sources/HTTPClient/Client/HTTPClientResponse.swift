/// A complete answer read by ``SocketHTTPClient``.
public struct HTTPClientResponse: Sendable {
  /// The status code.
  public var status: Int
  /// Header fields in the order received, names in lowercase.
  public var headers: [(name: String, value: String)]
  /// The body, with any chunked framing removed.
  public var body: [UInt8]

  /// An answer from its parts.
  ///
  /// - Parameters:
  ///   - status: The status code.
  ///   - headers: Header fields, names in lowercase.
  ///   - body: The body.
  public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The value of the first field named `name` (case-insensitive).
  ///
  /// - Parameter name: The field name.
  public subscript(header name: String) -> String? {
    let name = name.lowercased()
    return headers.first { $0.name == name }?.value
  }
}
