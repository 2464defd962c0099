/// Choices made when rendering a report, as opposed to facts of the run.
public struct ReportOptions: Hashable, Sendable {
  /// Replaces account ids and customer keys with pseudonyms (`--redact`); `nil` shows them.
  public var pseudonymizer: Pseudonymizer?
  /// At most this many accounts get expandable evidence in `report.html`, in table order;
  /// matches never do. The other files always carry every account's evidence.
  public var htmlEvidenceLimit: Int
  /// How many of the most frequent explanations `summary.md` lists.
  public var topExplanationCount: Int

  /// Creates options.
  ///
  /// - Parameters:
  ///   - pseudonymizer: the pseudonymizer for `--redact`, or `nil` to show real ids.
  ///   - htmlEvidenceLimit: the most accounts with expandable evidence in `report.html`;
  ///     the default, 5,000, keeps a 100,000-account report to tens of megabytes.
  ///   - topExplanationCount: how many explanations `summary.md` lists.
  public init(
    pseudonymizer: Pseudonymizer? = nil, htmlEvidenceLimit: Int = 5_000,
    topExplanationCount: Int = 10
  ) {
    self.pseudonymizer = pseudonymizer
    self.htmlEvidenceLimit = htmlEvidenceLimit
    self.topExplanationCount = topExplanationCount
  }

  /// Whether account ids are pseudonymised.
  public var isRedacted: Bool { pseudonymizer != nil }
}
