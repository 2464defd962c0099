import Entitlements

/// Everything the renderers need, prepared once: the accounts redacted (when asked) and in
/// display order, and the aggregates.
struct ReportContent: Sendable {
  let summary: RunSummary
  /// The accounts as the report shows them, in ``DisplayOrder``.
  let accounts: [AccountComparison]
  let statistics: ReportStatistics
  /// The `appAccountToken` audit, when the run audited tokens.
  let tokens: TokenAuditStatistics?
  let options: ReportOptions
  /// The changes since the previous run and the lost notifications, redacted like the accounts.
  let context: RunContext

  init(
    summary: RunSummary, comparisons: [AccountComparison], context: RunContext = RunContext(),
    options: ReportOptions
  ) {
    self.summary = summary
    self.options = options
    self.context = options.pseudonymizer.map { $0.redacting(context) } ?? context
    let shown = options.pseudonymizer.map { pseudonymizer in
      comparisons.map(pseudonymizer.redacting)
    }
    accounts = (shown ?? comparisons).sorted(by: DisplayOrder.precedes)
    statistics = ReportStatistics(
      comparisons: accounts, topExplanationCount: options.topExplanationCount)
    tokens =
      summary.tokenMapping == nil ? nil : TokenAuditStatistics(comparisons: self.accounts)
  }

  /// The accounts with a row in `report.html`: the first ``ReportOptions/htmlRowLimit`` in
  /// display order.
  var accountsListedInHTML: Int { min(max(0, options.htmlRowLimit), accounts.count) }

  /// The accounts with expandable evidence in `report.html`: listed accounts that do not
  /// match, the first ``ReportOptions/htmlEvidenceLimit`` of them in display order.
  var accountsWithHTMLEvidence: Int {
    let listedDiscrepancies = accounts.prefix(accountsListedInHTML).count { $0.category != .match }
    return min(max(0, options.htmlEvidenceLimit), listedDiscrepancies)
  }
}
