import Entitlements
import LegacyReceipts
import Terminal

/// Renders a run's headline for the terminal: what `receipt-migrate migrate`, `audit` and
/// `compare` print when they finish — where the App Store answers came from, whether the
/// threshold was crossed, for an audit what changed since the last run and how current the
/// data is, the accounts by impact, what to do first (``ActionList``), the accounts by category,
/// the team table's categories, the requests, and where the report is.
///
/// Like every renderer here it reads no clock and writes every value from data through a filter
/// that shows control characters as escapes.
public enum RunSummaryTerminalRenderer {
  /// The headline as aligned text.
  ///
  /// - Parameters:
  ///   - summary: the run's facts.
  ///   - comparisons: one comparison per account.
  ///   - changes: the accounts whose category changed since the previous run.
  ///   - reportDirectory: where the report was written, if it was.
  /// - Returns: the text, ending with a newline.
  public static func render(
    summary: RunSummary, comparisons: [AccountComparison], changes: [AccountChange] = [],
    reportDirectory: String? = nil
  ) -> String {
    render(
      summary: summary, statistics: RunStatistics(comparisons), changes: changes,
      reportDirectory: reportDirectory)
  }

  /// The headline of counts gathered while the comparisons streamed past.
  ///
  /// - Parameters:
  ///   - summary: the run's facts.
  ///   - statistics: every account, counted.
  ///   - changes: the accounts whose category changed since the previous run.
  ///   - reportDirectory: where the report was written, if it was.
  /// - Returns: the text, ending with a newline.
  public static func render(
    summary: RunSummary, statistics counted: RunStatistics, changes: [AccountChange] = [],
    reportDirectory: String? = nil
  ) -> String {
    let statistics = counted.final
    let total = statistics.accounts
    var lines: [String] = []
    if summary.appStore.isSimulated {
      lines.append("SIMULATED App Store: every App Store answer came from the built-in simulator.")
    }
    lines.append(
      summary.isAudit
        ? "Audit run \(t(summary.runId)): your entitlements against the App Store Server API, "
          + "\(ReportFormatting.accounts(total)) as of \(summary.asOf.iso8601)"
        : "Run \(t(summary.runId)): old receipt logic vs the App Store Server API, "
          + "\(ReportFormatting.accounts(total)) as of \(summary.asOf.iso8601)")
    lines.append("App Store: \(t(summary.appStore.description))")
    if let failOn = summary.failOn {
      lines.append(t(ThresholdText.sentence(failOn, exitCode: summary.exitCode)))
    }
    if summary.isAudit { lines += lead(summary) }
    lines.append("")

    lines.append(
      indent(
        impactTable(
          total: total, match: statistics.count(DiscrepancyCategory.match),
          count: statistics.count)))
    lines.append("")
    let actions = ActionList.of(
      statistics, summary: summary, lostNotifications: summary.lostNotifications)
    if !actions.isEmpty {
      lines.append("What to do first:")
      for (index, action) in actions.enumerated() {
        lines.append("  \(index + 1). " + t(action.sentence))
        if let command = action.command { lines.append("     " + t(command)) }
      }
      lines.append("")
    }

    // Logic: the two sides read the same moment differently (what the switch changes);
    // freshness: the snapshot was old (expected). Account-level categories have no cause.
    var categories = TextTable(columns: [
      .init("Category"), .init("Accounts", alignment: .right), .init("Share", alignment: .right),
      .init("Impact"), .init("Logic", alignment: .right), .init("Freshness", alignment: .right),
    ])
    for category in DisplayOrder.categories where statistics.count(category) > 0 {
      let count = statistics.count(category)
      let caused = category != .match && statistics.hasCauses(category)
      categories.addRow(
        [
          category.rawValue, ReportFormatting.count(count),
          ReportFormatting.share(count, of: total), ReportFormatting.impact(category.impact),
          caused ? ReportFormatting.count(statistics.count(category, cause: .logic)) : "",
          caused ? ReportFormatting.count(statistics.count(category, cause: .freshness)) : "",
        ])
    }
    lines.append(indent(categories.rendered()))
    if !statistics.money.currencies.isEmpty {
      // Per currency, never converted; subscriptions per month, one-time purchases once.
      lines.append("")
      lines.append("Money at stake (App Store prices; subscriptions per month, one-time once):")
      for impact in DiscrepancyCategory.Impact.allCases where impact != .none {
        guard let byCurrency = statistics.money.byImpact[impact] else { continue }
        let amounts = byCurrency.sorted { $0.key < $1.key }.map { currency, amounts in
          "\(t(currency)) \(MoneyAtStake.text(amounts.recurringMonthly))/month"
            + (amounts.oneTime != 0 ? " + \(MoneyAtStake.text(amounts.oneTime)) one-time" : "")
        }
        lines.append("  \(ReportFormatting.headline(impact)): " + amounts.joined(separator: "; "))
      }
    }

    if summary.comparedTeamTable || statistics.accountsWithTable > 0 {
      lines.append("")
      let file = summary.teamTableFile.map { " (\(t($0)))" } ?? ""
      // A headline of its own: what the team's live system gets wrong today, apart from what
      // the switch changes.
      lines.append("Your entitlement table\(file) against the App Store today:")
      lines.append("")
      lines.append(
        indent(
          impactTable(
            total: statistics.accountsWithTable,
            match: statistics.tableCount(DiscrepancyCategory.match),
            count: statistics.tableCount)))
      lines.append("")
      var table = TextTable(columns: [
        .init("Table category"), .init("Accounts", alignment: .right), .init("Impact"),
      ])
      for category in DisplayOrder.categories where statistics.tableCount(category) > 0 {
        table.addRow(
          [
            category.rawValue, ReportFormatting.count(statistics.tableCount(category)),
            ReportFormatting.impact(category.impact),
          ])
      }
      lines.append(indent(table.rendered()))
      let flaws = LegacyLogicFlaw.allCases.sorted().filter { statistics.count($0) > 0 }
      if !flaws.isEmpty {
        lines.append(
          "  Suspected legacy bugs: "
            + flaws.map { "\($0.rawValue) (\(ReportFormatting.accounts(statistics.count($0))))" }
            .joined(separator: ", ") + "; receipt-migrate explain ACCOUNT shows the evidence.")
      }
    }

    lines += audit(summary: summary, changes: changes)

    lines.append("")
    let requests = RequestTotals(summary.requests)
    if summary.requests.isEmpty {
      lines.append("Requests: none sent by this run.")
    } else {
      let byEndpoint = summary.requests.map {
        "\(t($0.endpoint)) \(ReportFormatting.count($0.requests))"
      }.joined(separator: ", ")
      var statuses: [Int: Int] = [:]
      for endpoint in summary.requests {
        statuses.merge(endpoint.errorsByStatus, uniquingKeysWith: +)
      }
      // 404s for ids the App Store does not know are answers, not faults: say which they were.
      let errors = statuses.sorted { $0.key < $1.key }.map {
        "\($0.key) ×\(ReportFormatting.count($0.value))"
      }
      lines.append(
        "Requests: \(ReportFormatting.count(requests.requests)) (\(byEndpoint)); "
          + "\(ReportFormatting.count(requests.retries)) retries, "
          + "\(ReportFormatting.count(requests.rateLimited)) 429s, "
          + "\(ReportFormatting.count(requests.failures)) ended in an error"
          + (errors.isEmpty ? "" : " (answers: \(errors.joined(separator: ", ")))"))
      if let rate = RateShareText.sentence(summary) { lines.append("Rate: " + t(rate)) }
    }
    if let mapping = summary.tokenMapping {
      let tokens = counted.tokens
      lines.append("Account tokens (\(t(mapping))): " + t(tokens.sentence))
    }
    lines.append("Legacy records: " + ReportFormatting.records(summary.inputs))
    if !summary.stageDurations.isEmpty {
      lines.append("Stages: " + ReportFormatting.stages(summary.stageDurations, escape: t))
    }
    if !summary.usedInputs.isEmpty {
      lines.append("Inputs:")
      for input in summary.usedInputs {
        lines.append("  \(t(input.name)): \(t(input.value)) (\(t(input.originText)))")
      }
    }
    if let reportDirectory {
      lines.append("")
      lines.append("Report: \(t(reportDirectory))/report.html")
      // Every other file the writer produces, named from its own list so this line never lags.
      let others = ReportWriter.fileNames(for: summary).filter { $0 != "report.html" }
      lines.append(
        "        (" + others.dropLast().joined(separator: ", ") + " and "
          + (others.last ?? "") + " beside it)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// What an audit leads with: what changed since the last run, on each side, and how current
  /// the App Store data is.
  private static func lead(_ summary: RunSummary) -> [String] {
    var lines: [String] = []
    if let since = summary.since {
      lines.append(
        "Compared with run \(t(since.previousRunId)) (as of \(since.previousAsOf.iso8601))")
      lines.append("  " + t(ChangeText.newFindings(since)))
      lines.append("  " + t(ChangeText.otherMoves(since)))
    }
    if let refresh = summary.refresh {
      lines.append("  " + t(FreshnessText.line(refresh)))
    }
    return lines
  }

  /// The changed accounts, the refresh and the lost notifications, after the headline.
  private static func audit(summary: RunSummary, changes: [AccountChange]) -> [String] {
    var lines: [String] = []
    if let since = summary.since {
      lines.append("")
      lines.append(t(ChangeText.headline(since)))
      for change in changes.prefix(ChangeText.listedInSummaries) {
        var moves: [String] = []
        if let primary = change.primary { moves.append("\(primary.arrow) (\(primary.kind.title))") }
        if let table = change.table { moves.append("table \(table.arrow) (\(table.kind.title))") }
        lines.append("  \(t(change.accountId))  \(moves.joined(separator: "; "))")
      }
      if changes.count > ChangeText.listedInSummaries {
        lines.append(
          "  … and \(ReportFormatting.count(changes.count - ChangeText.listedInSummaries)) more "
            + "in changes.csv")
      }
    }
    if let refresh = summary.refresh {
      lines.append("")
      lines.append("App Store refresh: " + t(refresh.sentence))
      for warning in refresh.warnings { lines.append("  warning: " + t(warning)) }
    }
    lines += FeedHealthText.lines(summary).map(t)
    if let age = FeedHealthText.dataAge(summary) { lines.append(t(age)) }
    if let setAside = FeedHealthText.setAside(summary) { lines.append(t(setAside)) }
    lines += CoverageText.lines(summary).map(t)
    if summary.lostNotifications > 0 {
      lines.append(
        "Lost notifications: \(ReportFormatting.count(summary.lostNotifications)) never reached "
          + "your server (listed in lost-notifications.csv with their signed payloads); replay "
          + "them with " + t(ActionList.replayCommand(runId: summary.runId)))
    }
    if summary.pendingNotifications > 0 {
      lines.append(
        "Pending notifications: \(ReportFormatting.count(summary.pendingNotifications)) failed "
          + "deliveries Apple may still retry (not lost yet: replaying them now could process "
          + "them twice)")
    }
    return lines
  }

  /// Accounts by impact, matches first, with their share of `total`.
  private static func impactTable(
    total: Int, match: Int, count: (DiscrepancyCategory.Impact) -> Int
  ) -> String {
    var impacts = TextTable(columns: [
      .init("Accounts"), .init("Count", alignment: .right), .init("Share", alignment: .right),
    ])
    impacts.addRow([
      "match", ReportFormatting.count(match), ReportFormatting.share(match, of: total),
    ])
    for impact in [
      DiscrepancyCategory.Impact.losesAccess, .gainsAccess, .changesTerms, .needsAttention,
    ] {
      impacts.addRow(
        [
          ReportFormatting.headline(impact), ReportFormatting.count(count(impact)),
          ReportFormatting.share(count(impact), of: total),
        ])
    }
    return impacts.rendered()
  }

  private static func indent(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(
      separator: "\n")
  }

  private static func t(_ text: String) -> String { TerminalText.safe(text) }
}
