/// The status a command exits with; throw one to exit quietly with that status.
///
/// receipt-migrate's statuses are `0` done, `1` discrepancies over the threshold, `2` usage
/// error, `3` configuration or authentication error, `4` finished with unresolved accounts,
/// `70` internal error; create the others with `ExitCode(3)`.
public struct ExitCode: Error, RawRepresentable, Hashable, Sendable {
  /// The status passed to `exit`.
  public var rawValue: Int32

  /// Creates an exit code.
  ///
  /// - Parameter rawValue: The status passed to `exit`.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// Creates an exit code.
  ///
  /// - Parameter code: The status passed to `exit`.
  public init(_ code: Int32) {
    self.init(rawValue: code)
  }

  /// Status 0: the command did what was asked.
  public static let success = ExitCode(0)
  /// Status 1: the command ran and reports a failure.
  public static let failure = ExitCode(1)
  /// Status 2: the arguments were wrong (a usage error).
  public static let validationFailure = ExitCode(2)
  /// Status 70 (`EX_SOFTWARE`): an error nobody anticipated, which is a bug in the tool.
  public static let internalError = ExitCode(70)

  /// Whether the status is 0.
  public var isSuccess: Bool { rawValue == 0 }
}
