/// Choices made when rendering a report, as opposed to facts of the run.
public struct ReportOptions: Hashable, Sendable {
  /// Replaces account ids and customer keys with pseudonyms (`--redact`); `nil` shows them.
  public var pseudonymizer: Pseudonymizer?
  /// At most this many accounts get a row in `report.html`, in display order (so matches are
  /// the first left out). A browser lays out every row of a table, and beyond some tens of
  /// thousands of rows the page takes many seconds to open; the other files always list
  /// every account.
  public var htmlRowLimit: Int
  /// At most this many accounts get expandable evidence in `report.html`, in table order;
  /// matches never do. The other files always carry every account's evidence.
  public var htmlEvidenceLimit: Int
  /// How many of the most frequent explanations `summary.md` lists.
  public var topExplanationCount: Int
  /// The shape of the team's table, which `fixes.csv` is written in; `nil` writes it in
  /// ``TeamTableFormat/standard`` (only a run that compared a table writes the file at all).
  public var teamTableFormat: TeamTableFormat?

  /// Creates options.
  ///
  /// - Parameters:
  ///   - pseudonymizer: the pseudonymizer for `--redact`, or `nil` to show real ids.
  ///   - htmlRowLimit: the most accounts with a row in `report.html`; the default, 25,000,
  ///     keeps the page quick to open.
  ///   - htmlEvidenceLimit: the most accounts with expandable evidence in `report.html`;
  ///     the default, 5,000, keeps a 100,000-account report under 20 MB.
  ///   - topExplanationCount: how many explanations `summary.md` lists.
  public init(
    pseudonymizer: Pseudonymizer? = nil, htmlRowLimit: Int = 25_000, htmlEvidenceLimit: Int = 5_000,
    topExplanationCount: Int = 10
  ) {
    self.pseudonymizer = pseudonymizer
    self.htmlRowLimit = htmlRowLimit
    self.htmlEvidenceLimit = htmlEvidenceLimit
    self.topExplanationCount = topExplanationCount
  }

  /// Whether account ids are pseudonymised.
  public var isRedacted: Bool { pseudonymizer != nil }
}
