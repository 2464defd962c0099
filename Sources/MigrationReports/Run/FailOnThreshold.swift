/// The `--fail-on` threshold a run was given, and whether the comparison crossed it.
public struct FailOnThreshold: Hashable, Sendable {
  /// The threshold as the user wrote it, such as `loses_access>0.5%`.
  public var expression: String
  /// Whether the run crossed it (and so exits with code 1).
  public var isCrossed: Bool

  /// Creates a threshold outcome.
  ///
  /// - Parameters:
  ///   - expression: the threshold as the user wrote it.
  ///   - isCrossed: whether the run crossed it.
  public init(expression: String, isCrossed: Bool) {
    self.expression = expression
    self.isCrossed = isCrossed
  }
}
