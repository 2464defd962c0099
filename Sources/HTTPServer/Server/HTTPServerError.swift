import Glibc

/// Why an `HTTPServer` could not start.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
  /// The broad reason, for code that reacts differently to each.
  public enum Kind: Hashable, Sendable {
    /// A configuration value is out of range.
    case invalidConfiguration
    /// The address is not an IPv4 loopback address.
    case addressNotLoopback
    /// The operating system refused a socket operation, for example because the port is taken.
    case socketFailure
    /// The operating system refused to start a thread.
    case threadFailure
  }

  /// The broad reason.
  public let kind: Kind
  /// What failed, why, and what to do next, in one sentence.
  public let message: String
  /// The `errno` value behind a `socketFailure` or `threadFailure`, if there was one.
  public let systemErrorNumber: Int32?

  init(_ kind: Kind, _ message: String, systemErrorNumber: Int32? = nil) {
    self.kind = kind
    self.message = message
    self.systemErrorNumber = systemErrorNumber
  }

  /// The message.
  public var description: String { message }

  /// An error for a failed system call, naming the call's purpose and the `errno` text.
  static func system(
    _ kind: Kind, _ what: String, errorNumber: Int32, nextStep: String
  ) -> HTTPServerError {
    let reason = String(cString: strerror(errorNumber))
    return HTTPServerError(
      kind, "\(what): \(reason) (errno \(errorNumber)); \(nextStep)",
      systemErrorNumber: errorNumber)
  }
}
