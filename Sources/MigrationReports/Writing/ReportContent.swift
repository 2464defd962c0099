import Entitlements

/// Everything the renderers need, prepared once: the accounts redacted (when asked) and in
/// display order, and the aggregates.
struct ReportContent: Sendable {
  let summary: RunSummary
  /// The accounts as the report shows them, in ``DisplayOrder``.
  let accounts: [AccountComparison]
  let statistics: ReportStatistics
  let options: ReportOptions

  init(summary: RunSummary, comparisons: [AccountComparison], options: ReportOptions) {
    self.summary = summary
    self.options = options
    let shown = options.pseudonymizer.map { pseudonymizer in
      comparisons.map(pseudonymizer.redacting)
    }
    accounts = (shown ?? comparisons).sorted(by: DisplayOrder.precedes)
    statistics = ReportStatistics(
      comparisons: accounts, topExplanationCount: options.topExplanationCount)
  }

  /// Whether an account gets expandable evidence in `report.html`: accounts that do not match,
  /// the first ``ReportOptions/htmlEvidenceLimit`` of them in display order.
  var accountsWithHTMLEvidence: Int {
    min(max(0, options.htmlEvidenceLimit), accounts.count - statistics.count(.match))
  }
}
