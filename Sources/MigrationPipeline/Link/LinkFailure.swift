/// Why a `link` run cannot start: an unknown run to undo, a store with nothing to link.
public struct LinkFailure: Error, CustomStringConvertible {
  /// The explanation and what to do.
  public var description: String

  /// Creates a failure.
  public init(description: String) {
    self.description = description
  }
}
