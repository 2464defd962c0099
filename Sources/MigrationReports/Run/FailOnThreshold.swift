/// The `--fail-on` threshold a run was given, and whether the comparison crossed it.
public struct FailOnThreshold: Hashable, Sendable {
  /// The threshold as the user wrote it, such as `loses_access>0.5%`.
  public var expression: String
  /// Whether the run crossed it (and so exits with code 1).
  public var isCrossed: Bool
  /// The `new:` selectors that could not be decided, because the run compared with did not
  /// compare their side alike (another catalogue, no team table): they took no account, and
  /// the run says so (exit 4 unless the threshold was crossed).
  public var unevaluated: [String]

  /// Creates a threshold outcome.
  ///
  /// - Parameters:
  ///   - expression: the threshold as the user wrote it.
  ///   - isCrossed: whether the run crossed it.
  ///   - unevaluated: the `new:` selectors that could not be decided.
  public init(expression: String, isCrossed: Bool, unevaluated: [String] = []) {
    self.expression = expression
    self.isCrossed = isCrossed
    self.unevaluated = unevaluated
  }
}
