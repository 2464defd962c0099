/// A fault, latency or rate-limit specification that cannot be used, with what was wrong and
/// what the syntax is.
public struct SimulatorSpecificationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong, and how to write it instead.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: what was wrong, and how to write it instead.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
