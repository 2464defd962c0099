/// Makes a command line safe to keep with a run (in the store, in `run.json`, in alerts): the
/// values of flags that carry secrets are replaced, everything else is kept as typed.
///
/// App Store credentials never come in as arguments (they come from the environment or the
/// configuration file, which are never recorded), but a few flags carry secrets of their own: a
/// webhook URL is its own credential (Slack's hold their token in the path), and the namespace
/// tokens are derived in lets anyone compute every account's `appAccountToken`.
public enum CommandLineScrubber {
  /// The flags whose values are secrets, and how each value is shown instead.
  static let secretFlags: [String: @Sendable (String) -> String] = [
    "--webhook": redactedURL,
    "--derive-tokens": { _ in "<namespace>" },
  ]

  /// The arguments with secret values replaced.
  ///
  /// - Parameter arguments: the command line, without the program's path.
  /// - Returns: the scrubbed arguments, as many as given.
  public static func scrub(_ arguments: [String]) -> [String] {
    var scrubbed: [String] = []
    var pending: (@Sendable (String) -> String)?
    for argument in arguments {
      if let replace = pending {
        scrubbed.append(replace(argument))
        pending = nil
        continue
      }
      if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--"),
        let replace = secretFlags[String(argument[..<equals])]
      {
        scrubbed.append(
          argument[...equals] + replace(String(argument[argument.index(after: equals)...])))
        continue
      }
      pending = secretFlags[argument]
      scrubbed.append(argument)
    }
    return scrubbed
  }

  /// `https://hooks.example.com/<redacted>`: the scheme and host say where alerts went, the
  /// path and query (where such URLs keep their tokens) are not kept.
  @Sendable static func redactedURL(_ url: String) -> String {
    guard let scheme = url.range(of: "://") else { return "<redacted>" }
    let afterScheme = url[scheme.upperBound...]
    let host = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    // Credentials before the host (user:password@) go too.
    let bareHost = host.split(separator: "@").last.map(String.init) ?? ""
    return url[..<scheme.upperBound] + bareHost + "/<redacted>"
  }
}
