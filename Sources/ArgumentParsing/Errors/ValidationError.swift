/// A usage error found by a command's own checks, printed with the command's usage line and
/// exiting with code 2.
///
/// Throw it from `validate()` when values conflict, or from `run()` when an argument turns out
/// to be unusable; the message should name the argument, the problem and what to type instead.
public struct ValidationError: Error, CustomStringConvertible {
  /// What is wrong, printed after `Error: `.
  public var message: String

  /// Creates a usage error.
  ///
  /// - Parameter message: What is wrong, naming the argument and what to type instead.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
