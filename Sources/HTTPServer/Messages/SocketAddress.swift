/// An IPv4 address and TCP port, such as the peer of a connection.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
  /// The address in dotted-decimal form, for example `127.0.0.1`.
  public var host: String
  /// The TCP port.
  public var port: Int

  /// Creates a socket address.
  ///
  /// - Parameters:
  ///   - host: The address in dotted-decimal form.
  ///   - port: The TCP port.
  public init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  /// `host:port`, for logs.
  public var description: String { "\(host):\(port)" }
}
