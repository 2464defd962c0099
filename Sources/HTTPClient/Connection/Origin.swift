/// Where connections go: scheme, host and port. Keep-alive connections are pooled per origin.
struct Origin: Hashable, Sendable, CustomStringConvertible {
  /// `http` or `https`.
  var scheme: String
  /// The host name or address literal, IPv6 without brackets.
  var host: String
  /// The TCP port.
  var port: Int

  /// Whether connections use TLS.
  var usesTLS: Bool { scheme == "https" }

  /// The `Host` field's value: the port only when it is not the scheme's default, an IPv6
  /// literal in brackets.
  var hostField: String {
    let name = host.contains(":") ? "[\(host)]" : host
    let defaultPort = usesTLS ? 443 : 80
    return port == defaultPort ? name : "\(name):\(port)"
  }

  /// `host:port`, for messages.
  var description: String {
    host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }
}
