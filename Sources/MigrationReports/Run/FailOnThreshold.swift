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
  /// How many accounts the threshold counted, when known (summaries stored before it was kept
  /// do not say).
  public var counted: Int?
  /// How many counted accounts it tolerates (`--fail-threshold`).
  public var tolerated: Int
  /// What it counts, in words, naming the side it reads: "accounts that entered a finding of
  /// your table since the previous run". `nil` when not known.
  public var counts: String?

  /// Creates a threshold outcome.
  ///
  /// - Parameters:
  ///   - expression: the threshold as the user wrote it.
  ///   - isCrossed: whether the run crossed it.
  ///   - unevaluated: the `new:` selectors that could not be decided.
  ///   - counted: how many accounts it counted, when known.
  ///   - tolerated: how many counted accounts it tolerates.
  ///   - counts: what it counts, in words, when known.
  public init(
    expression: String, isCrossed: Bool, unevaluated: [String] = [], counted: Int? = nil,
    tolerated: Int = 0, counts: String? = nil
  ) {
    self.expression = expression
    self.isCrossed = isCrossed
    self.unevaluated = unevaluated
    self.counted = counted
    self.tolerated = tolerated
    self.counts = counts
  }

  /// "3 accounts counted (accounts that entered a finding of your table since the previous run);
  /// 0 tolerated", or `nil` when the count is not known.
  public var tally: String? {
    guard let counted else { return nil }
    return "\(ReportFormatting.accounts(counted)) counted"
      + (counts.map { " (\($0))" } ?? "") + "; \(ReportFormatting.count(tolerated)) tolerated"
  }
}
