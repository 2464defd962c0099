/// A setting is missing or wrong: the message names the setting, what is wrong with it and what
/// to do.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The setting, the reason and the next step, in one sentence.
  public let message: String

  /// Creates an error.
  ///
  /// - Parameter message: The setting, the reason and the next step.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
