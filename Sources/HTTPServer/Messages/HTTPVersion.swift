/// The protocol version on a request line, such as HTTP/1.1.
///
/// The server accepts HTTP/1.0 and HTTP/1.x for x ≥ 1 (a higher 1.x minor version is answered as
/// 1.1, as RFC 9110 §6.2 allows); any other major version is refused with 505.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
  /// The major version, 1 for every request the server accepts.
  public let major: Int
  /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
  public let minor: Int

  /// Creates a version from its two numbers.
  ///
  /// - Parameters:
  ///   - major: The major version.
  ///   - minor: The minor version.
  public init(major: Int, minor: Int) {
    self.major = major
    self.minor = minor
  }

  /// The version as it is written on the wire, for example `HTTP/1.1`.
  public var description: String { "HTTP/\(major).\(minor)" }

  /// Whether connections stay open after a response unless a `Connection: close` says otherwise;
  /// true from HTTP/1.1 on, false for HTTP/1.0.
  var keepsConnectionsAliveByDefault: Bool { major > 1 || (major == 1 && minor >= 1) }
}
