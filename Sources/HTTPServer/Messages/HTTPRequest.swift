/// A complete HTTP request, as a handler receives it.
///
/// By the time a handler sees a request the server has read the whole body (de-chunked if it was
/// sent chunked), checked it against the configured limits and answered any
/// `Expect: 100-continue`.
public struct HTTPRequest: Sendable {
  /// The request method.
  public var method: HTTPMethod
  /// The percent-decoded path, for example `/inApps/v1/history/2000000000000001`.
  public var path: String
  /// The percent-decoded query items in the order sent; repeated names stay separate entries.
  public var queryItems: [HTTPQueryItem]
  /// The protocol version of the request line.
  public var version: HTTPVersion
  /// The header fields in the order sent.
  public var headers: HTTPHeaders
  /// The body bytes; empty when the request has none.
  public var body: [UInt8]
  /// The address and port of the client.
  public var remoteAddress: SocketAddress

  /// Creates a request, for example to call a handler directly in a test.
  ///
  /// - Parameters:
  ///   - method: The request method.
  ///   - path: The decoded path.
  ///   - queryItems: The decoded query items in order.
  ///   - version: The protocol version.
  ///   - headers: The header fields.
  ///   - body: The body bytes.
  ///   - remoteAddress: The client's address.
  public init(
    method: HTTPMethod,
    path: String,
    queryItems: [HTTPQueryItem] = [],
    version: HTTPVersion = HTTPVersion(major: 1, minor: 1),
    headers: HTTPHeaders = [:],
    body: [UInt8] = [],
    remoteAddress: SocketAddress = SocketAddress(host: "127.0.0.1", port: 0)
  ) {
    self.method = method
    self.path = path
    self.queryItems = queryItems
    self.version = version
    self.headers = headers
    self.body = body
    self.remoteAddress = remoteAddress
  }

  // MARK: - Query lookup

  /// The values of every query item with this name, in the order sent.
  ///
  /// For `?status=1&status=4`, `queryValues(named: "status")` is `["1", "4"]`.
  ///
  /// - Parameter name: The decoded name, compared exactly.
  /// - Returns: The values; empty when the name is absent.
  public func queryValues(named name: String) -> [String] {
    queryItems.filter { $0.name == name }.map(\.value)
  }

  /// The value of the first query item with this name.
  ///
  /// - Parameter name: The decoded name, compared exactly.
  /// - Returns: The first value, or `nil` when the name is absent.
  public func queryValue(named name: String) -> String? {
    queryItems.first { $0.name == name }?.value
  }
}
