import Foundation

/// The team's endpoint for App Store Server Notifications, where a replay sends them: an `http`
/// or `https` URL, as the journal names it.
public struct ReplayDestination: Hashable, Sendable, CustomStringConvertible {
  /// `http` or `https`.
  public let scheme: String
  /// The host name or address (an IPv6 address without brackets).
  public let host: String
  /// The port.
  public let port: Int
  /// The path and query, percent-encoded, starting with `/`.
  public let target: String

  /// Parses a URL.
  ///
  /// - Parameter text: the URL, such as `https://api.example.com/apple/notifications`.
  /// - Throws: ``ReplayFailure`` naming the URL and what is wrong with it: not absolute, not
  ///   `http` or `https`, no host, a user name or password (the endpoint Apple posts to takes
  ///   none), or a fragment (which is never sent).
  public init(parsing text: String) throws(ReplayFailure) {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
      throw ReplayFailure(
        "--to \(text) is not a URL; give the endpoint Apple sends your "
          + "notifications to, such as https://api.example.com/apple/notifications")
    }
    guard scheme == "http" || scheme == "https" else {
      throw ReplayFailure("--to \(text): the scheme must be https (or http), not \(scheme)")
    }
    guard var host = url.host(percentEncoded: false), !host.isEmpty else {
      throw ReplayFailure("--to \(text) names no host")
    }
    guard url.user == nil, url.password == nil else {
      throw ReplayFailure(
        "--to \(text) holds a user name or password; Apple sends notifications without them, "
          + "and a replay does the same")
    }
    guard url.fragment == nil else {
      throw ReplayFailure("--to \(text) has a fragment (#…), which is never sent to a server")
    }
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    var target = url.path(percentEncoded: true)
    if target.isEmpty { target = "/" }
    if let query = url.query(percentEncoded: true) { target += "?" + query }
    self.scheme = scheme
    self.host = host.lowercased()
    self.port = url.port ?? (scheme == "https" ? 443 : 80)
    self.target = target
  }

  /// The URL as the journal keeps it: scheme and host in lowercase, the port only when it is
  /// not the scheme's default, so that two spellings of one endpoint are one destination.
  public var description: String {
    let name = host.contains(":") ? "[\(host)]" : host
    let defaultPort = scheme == "https" ? 443 : 80
    return "\(scheme)://\(name)\(port == defaultPort ? "" : ":\(port)")\(target)"
  }

  /// Whether the endpoint is this machine's: a replay to anything else over plain `http` sends
  /// customers' purchase data unencrypted, and is warned about.
  public var isLoopback: Bool {
    host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }
}
