import Entitlements

/// Everything the renderers need, prepared once: the aggregates, the context, and — when the
/// report is made from comparisons in memory — the accounts, redacted (when asked) and in
/// display order. A report streamed from a ``ComparisonSource`` holds no accounts here: its rows
/// are written while the accounts stream past (see ``ReportComposer``).
struct ReportContent: Sendable {
  let summary: RunSummary
  /// The accounts as the report shows them, in ``DisplayOrder``; empty when streamed.
  let accounts: [AccountComparison]
  let statistics: ReportStatistics
  /// The `appAccountToken` audit, when the run audited tokens.
  let tokens: TokenAuditStatistics?
  let options: ReportOptions
  /// The changes since the previous run and the lost notifications, redacted like the accounts.
  let context: RunContext
  /// The accounts with a row in `report.html`: the first ``ReportOptions/htmlRowLimit`` in
  /// display order.
  let accountsListedInHTML: Int
  /// The accounts with expandable evidence in `report.html`: listed accounts that do not
  /// match, the first ``ReportOptions/htmlEvidenceLimit`` of them in display order.
  let accountsWithHTMLEvidence: Int

  /// The content of comparisons in memory.
  init(
    summary: RunSummary, comparisons: [AccountComparison], context: RunContext = RunContext(),
    options: ReportOptions
  ) {
    let shown = options.pseudonymizer.map { pseudonymizer in
      comparisons.map(pseudonymizer.redacting)
    }
    let accounts = (shown ?? comparisons).sorted(by: DisplayOrder.precedes)
    let listed = min(max(0, options.htmlRowLimit), accounts.count)
    let listedDiscrepancies = accounts.prefix(listed).count { $0.category != .match }
    self.init(
      summary: summary, accounts: accounts,
      statistics: ReportStatistics(
        comparisons: accounts, topExplanationCount: options.topExplanationCount),
      tokens: summary.tokenMapping == nil ? nil : TokenAuditStatistics(comparisons: accounts),
      context: context, options: options, accountsListedInHTML: listed,
      accountsWithHTMLEvidence: min(max(0, options.htmlEvidenceLimit), listedDiscrepancies))
  }

  /// The content of counts alone, for the files that show only aggregates (`run.json`): the
  /// accounts report.html would list and give evidence are derived from the counts, as display
  /// order puts the accounts that do not match first.
  init(
    summary: RunSummary, statistics: ReportStatistics, tokens: TokenAuditStatistics?,
    context: RunContext, options: ReportOptions
  ) {
    let listed = min(max(0, options.htmlRowLimit), statistics.accounts)
    let listedDiscrepancies = min(
      listed, statistics.accounts - statistics.count(DiscrepancyCategory.match))
    self.init(
      summary: summary, statistics: statistics, tokens: tokens, context: context,
      options: options, accountsListedInHTML: listed,
      accountsWithHTMLEvidence: min(max(0, options.htmlEvidenceLimit), listedDiscrepancies))
  }

  /// The content of a report whose accounts were counted as they streamed past.
  init(
    summary: RunSummary, accounts: [AccountComparison] = [], statistics: ReportStatistics,
    tokens: TokenAuditStatistics?, context: RunContext, options: ReportOptions,
    accountsListedInHTML: Int, accountsWithHTMLEvidence: Int
  ) {
    self.summary = summary
    self.accounts = accounts
    self.statistics = statistics
    self.tokens = tokens
    self.options = options
    self.context = options.pseudonymizer.map { $0.redacting(context) } ?? context
    self.accountsListedInHTML = accountsListedInHTML
    self.accountsWithHTMLEvidence = accountsWithHTMLEvidence
  }
}
