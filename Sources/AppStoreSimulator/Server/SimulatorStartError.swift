/// Why a `SimulatorServer` could not start: a setting out of range, or a listener that could
/// not be opened.
public struct SimulatorStartError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What failed, why, and what to do next.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: what failed, why, and what to do next.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
