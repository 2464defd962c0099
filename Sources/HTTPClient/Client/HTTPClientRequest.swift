/// One request for ``SocketHTTPClient``: where it goes, its head and its body.
public struct HTTPClientRequest: Sendable {
  /// `http` or `https`.
  public var scheme: String
  /// The host name or address literal (an IPv6 literal without brackets).
  public var host: String
  /// The TCP port.
  public var port: Int
  /// The method, such as `GET`.
  public var method: String
  /// The request target: the percent-encoded path and query, starting with `/`.
  public var target: String
  /// Header fields in the order to send them. `Host` and `Content-Length` are written by the
  /// client and must not be given.
  public var headers: [(name: String, value: String)]
  /// The body; `nil` for none.
  public var body: [UInt8]?

  /// A request from its parts.
  ///
  /// - Parameters:
  ///   - method: The method.
  ///   - scheme: `http` or `https`.
  ///   - host: The host name or address literal.
  ///   - port: The port; `nil` for the scheme's default (80 or 443).
  ///   - target: The path and query, percent-encoded.
  ///   - headers: Header fields, without `Host` and `Content-Length`.
  ///   - body: The body.
  public init(
    method: String, scheme: String, host: String, port: Int? = nil, target: String,
    headers: [(name: String, value: String)] = [], body: [UInt8]? = nil
  ) {
    self.method = method
    self.scheme = scheme.lowercased()
    self.host = host
    self.port = port ?? (self.scheme == "https" ? 443 : 80)
    self.target = target.isEmpty ? "/" : target
    self.headers = headers
    self.body = body
  }

  /// Whether sending the request twice has the effect of sending it once (RFC 9110, 9.2.2), so
  /// that a request lost to a closed keep-alive connection may be sent again.
  public var isIdempotent: Bool {
    ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(method)
  }
}
