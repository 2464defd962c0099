/// Why `notifications replay` cannot start: a destination it cannot send to, or a run the store
/// does not hold.
public struct ReplayFailure: Error, CustomStringConvertible, Sendable {
  /// The explanation, naming the input and the reason.
  public var description: String

  /// Creates a failure.
  ///
  /// - Parameter description: the explanation.
  public init(_ description: String) {
    self.description = description
  }
}
