import Entitlements
import LegacyReceipts

/// Renders `summary.md`: the report's headline in Markdown, short enough for a pull request
/// or a chat message.
struct SummaryMarkdownRenderer {
  let content: ReportContent

  func render() -> String {
    let summary = content.summary
    let statistics = content.statistics
    let total = statistics.accounts
    var lines: [String] = []
    lines.append(
      summary.isAudit
        ? "# Audit `\(code(summary.runId))`" : "# Migration report `\(code(summary.runId))`")
    lines.append("")
    if summary.appStore.isSimulated {
      lines.append(
        "> **Simulated App Store.** Every App Store answer in this report came from the "
          + "built-in simulator, not from Apple.")
      lines.append("")
    }
    if let failOn = summary.failOn {
      let tally = failOn.tally.map { ": \(md($0))" } ?? ""
      lines.append(
        failOn.isCrossed
          ? "> **Threshold crossed:** `--fail-on \(code(failOn.expression))`\(tally); the run "
            + "exits with code 1."
          : ThresholdText.sentence(
            failOn, exitCode: summary.exitCode, flag: { "`\(code($0))`" }, escape: md))
      lines.append("")
    }
    lines.append(
      (summary.isAudit
        ? "Your entitlements against the App Store Server API"
        : "Old receipt logic against the App Store Server API")
        + " for **\(ReportFormatting.count(total)) accounts**, as of \(summary.asOf.iso8601), on "
        + md(summary.appStore.description)
        + (content.options.isRedacted ? "; account ids are pseudonymised." : "."))
    lines.append("")
    if summary.isAudit { lines += auditLead() }
    lines += impactTable(
      match: statistics.count(DiscrepancyCategory.match), count: statistics.count, total: total)
    lines.append(
      row("of which unresolved", statistics.count(DiscrepancyCategory.unresolved), total))
    lines.append("")
    lines += actions()

    if let since = summary.since {
      lines.append("## Since the last run")
      lines.append("")
      lines.append(md(ChangeText.headline(since)) + ".")
      lines.append("")
      let changes = content.context.changes
      if !changes.isEmpty {
        lines.append("| Account | Change | Table |")
        lines.append("|---|---|---|")
        for change in changes.prefix(ChangeText.listedInSummaries) {
          lines.append(
            "| `\(code(change.accountId))` | "
              + (change.primary.map { "\(md($0.arrow)) (\($0.kind.title))" } ?? "") + " | "
              + (change.table.map { "\(md($0.arrow)) (\($0.kind.title))" } ?? "") + " |")
        }
        if changes.count > ChangeText.listedInSummaries {
          lines.append("")
          lines.append(
            "… and \(ReportFormatting.count(changes.count - ChangeText.listedInSummaries)) more "
              + "in `changes.csv`.")
        }
        lines.append("")
      }
    }

    lines.append("## Categories")
    lines.append("")
    lines.append("| Category | Accounts | Share | Impact | Logic | Freshness |")
    lines.append("|---|---:|---:|---|---:|---:|")
    for category in DisplayOrder.categories where statistics.count(category) > 0 {
      let count = statistics.count(category)
      let caused = category != .match && statistics.hasCauses(category)
      let logic = caused ? ReportFormatting.count(statistics.count(category, cause: .logic)) : ""
      let freshness =
        caused ? ReportFormatting.count(statistics.count(category, cause: .freshness)) : ""
      lines.append(
        "| \(category.title) (`\(category.rawValue)`) | \(ReportFormatting.count(count)) | "
          + "\(ReportFormatting.share(count, of: total)) | \(ReportFormatting.impact(category.impact)) | "
          + "\(logic) | \(freshness) |")
    }
    lines.append("")
    lines.append(
      "*Logic*: the two sides read the same moment differently — what the switch itself "
        + "changes. *Freshness*: the stored snapshot was older than the App Store's answer — "
        + "expected, not a bug.")
    lines.append("")

    if !statistics.money.currencies.isEmpty {
      lines.append("## Money at stake")
      lines.append("")
      lines.append(
        "From the App Store's deciding transactions, per currency, never converted: recurring "
          + "revenue normalised to a month (price × 30.4375 days ÷ the transaction's own "
          + "period), one-time purchases at their price.")
      lines.append("")
      lines.append("| Impact | Currency | Recurring per month | One-time |")
      lines.append("|---|---|---:|---:|")
      for impact in DiscrepancyCategory.Impact.allCases where impact != .none {
        for (currency, amounts) in (statistics.money.byImpact[impact] ?? [:]).sorted(by: {
          $0.key < $1.key
        }) {
          lines.append(
            "| \(ReportFormatting.impact(impact)) | \(code(currency)) | "
              + "\(MoneyAtStake.text(amounts.recurringMonthly)) | \(MoneyAtStake.text(amounts.oneTime)) |"
          )
        }
      }
      if statistics.money.unpricedKeys > 0 {
        lines.append("")
        lines.append(
          "\(ReportFormatting.count(statistics.money.unpricedKeys)) differing key(s) carry no "
            + "price and are not counted.")
      }
      lines.append("")
    }

    if !statistics.products.isEmpty {
      lines.append("## By product")
      lines.append("")
      lines.append("| Product | Group | Accounts | Keys | Differ | At stake | Categories |")
      lines.append("|---|---|---:|---:|---:|---|---|")
      for product in statistics.products.prefix(20) {
        let categories = DisplayOrder.categories.compactMap { category -> String? in
          guard category != .match, let count = product.byCategory[category] else { return nil }
          return "`\(category.rawValue)` \(ReportFormatting.count(count))"
        }
        lines.append(
          "| `\(code(product.productId))` | \(product.group.isEmpty ? "—" : "`\(code(product.group))`") | "
            + "\(ReportFormatting.count(product.accounts)) | \(ReportFormatting.count(product.keys)) | "
            + "\(ReportFormatting.count(product.differing)) | \(md(MoneyAtStake.summary(product.atStake))) | "
            + "\(categories.joined(separator: ", ")) |"
        )
      }
      if statistics.products.count > 20 {
        lines.append("")
        lines.append("(\(statistics.products.count - 20) more in run.json.)")
      }
      lines.append("")
    }

    if !statistics.topExplanations.isEmpty {
      lines.append("## Top explanations")
      lines.append("")
      for (index, explanation) in statistics.topExplanations.enumerated() {
        lines.append(
          "\(index + 1). \(ReportFormatting.count(explanation.accounts)) × "
            + "`\(explanation.category.rawValue)`: \(md(explanation.text)) — next: "
            + md(explanation.action))
      }
      lines.append("")
    }

    if summary.comparedTeamTable || statistics.accountsWithTable > 0 {
      lines.append("## Your entitlement table")
      lines.append("")
      let file = summary.teamTableFile.map { " `\(code($0))`" } ?? ""
      let tabled = statistics.accountsWithTable
      lines.append(
        "The table\(file) against the App Store today, \(ReportFormatting.accounts(tabled)) by "
          + "the same rules: what your live system gets wrong now, whatever the switch changes.")
      lines.append("")
      lines += impactTable(
        match: statistics.tableCount(DiscrepancyCategory.match), count: statistics.tableCount,
        total: tabled)
      lines.append("")
      lines.append("| Table category | Accounts | Impact |")
      lines.append("|---|---:|---|")
      for category in DisplayOrder.categories where statistics.tableCount(category) > 0 {
        lines.append(
          "| `\(category.rawValue)` | \(ReportFormatting.count(statistics.tableCount(category))) | "
            + "\(ReportFormatting.impact(category.impact)) |")
      }
      let flaws = LegacyLogicFlaw.allCases.sorted().filter { statistics.count($0) > 0 }
      if !flaws.isEmpty {
        lines.append("")
        lines.append("Suspected bugs in the legacy logic:")
        lines.append("")
        for flaw in flaws {
          lines.append(
            "- `\(flaw.rawValue)` (\(ReportFormatting.accounts(statistics.count(flaw)))): "
              + md(flaw.explanation))
        }
      }
      lines.append("")
    }

    if let refresh = summary.refresh {
      lines.append("## App Store refresh")
      lines.append("")
      lines.append(md(refresh.sentence) + ".")
      for warning in refresh.warnings {
        lines.append("")
        lines.append("> **Warning:** " + md(warning))
      }
      lines.append("")
    }
    let feeds =
      FeedHealthText.lines(summary)
      + [FeedHealthText.dataAge(summary), FeedHealthText.setAside(summary)].compactMap { $0 }
      + CoverageText.lines(summary)
    if !feeds.isEmpty {
      lines += feeds.map { "- " + md($0) }
      lines.append("")
    }
    let outside = content.context.tableOnlyAccounts.prefix(ChangeText.listedInSummaries)
    if !outside.isEmpty {
      lines.append(
        "Only in your table: " + outside.map { "`\(code($0))`" }.joined(separator: ", ")
          + (content.context.tableOnlyAccounts.count > outside.count ? ", …" : "") + ".")
      lines.append("")
    }
    let unclaimed = content.context.unclaimedCustomers.prefix(ChangeText.listedInSummaries)
    if !unclaimed.isEmpty {
      lines.append("| Unclaimed customer | Environment | appAccountToken | Notifications |")
      lines.append("|---|---|---|---:|")
      for customer in unclaimed {
        lines.append(
          "| `\(code(customer.customerKey))` | \(md(customer.environment)) | "
            + "`\(code(customer.appAccountToken ?? ""))` | \(customer.notifications) |")
      }
      let more = content.context.unclaimedCustomers.count - unclaimed.count
      if more > 0 {
        lines.append("| … and \(ReportFormatting.count(more)) more (report.html) | | | |")
      }
      lines.append("")
    }
    if !content.context.lostNotifications.isEmpty {
      lines.append("## Lost notifications")
      lines.append("")
      lines.append(
        "\(ReportFormatting.count(content.context.lostNotifications.count)) notification(s) never "
          + "reached your server; `lost-notifications.csv` lists them with their signed payloads. "
          + "Replay them to your server with `\(code(ActionList.replayCommand(runId: summary.runId)))`."
      )
      lines.append("")
      let columns = LostNotificationColumn.allCases
      lines.append("| " + columns.map(\.title).joined(separator: " | ") + " |")
      lines.append("|" + String(repeating: "---|", count: columns.count))
      for lost in content.context.lostNotifications.prefix(ChangeText.listedInSummaries) {
        let cells = columns.map { column in
          column.isIdentifier ? "`\(code(column.text(lost)))`" : md(column.text(lost))
        }
        lines.append("| " + cells.joined(separator: " | ") + " |")
      }
      if content.context.lostNotifications.count > ChangeText.listedInSummaries {
        lines.append("")
        lines.append(
          "… and \(ReportFormatting.count(content.context.lostNotifications.count - ChangeText.listedInSummaries)) "
            + "more in `lost-notifications.csv`.")
      }
      lines.append("")
    }
    if !content.context.pendingNotifications.isEmpty {
      lines.append("## Pending notifications")
      lines.append("")
      lines.append(
        "\(ReportFormatting.count(content.context.pendingNotifications.count)) failed deliveries "
          + "Apple may still retry; not lost yet, so not to be replayed yet.")
      lines.append("")
      lines.append("| Signed | Type | Customer | Failed attempts | Last attempt |")
      lines.append("|---|---|---|---:|---|")
      for pending in content.context.pendingNotifications.prefix(ChangeText.listedInSummaries) {
        lines.append(
          "| \(pending.signedDate?.iso8601 ?? "") | `\(code(pending.kind))` | "
            + "`\(code(pending.customerKey ?? ""))` | \(pending.failedAttempts) | "
            + "\(pending.lastAttempt?.iso8601 ?? "") |")
      }
      let more = content.context.pendingNotifications.count - ChangeText.listedInSummaries
      if more > 0 {
        lines.append("| … and \(ReportFormatting.count(more)) more (report.html) | | | | |")
      }
      lines.append("")
    }

    if let tokens = content.tokens {
      lines.append("## Account tokens")
      lines.append("")
      lines.append(
        "Every purchase's `appAccountToken` against your mapping (\(md(summary.tokenMapping ?? ""))): "
          + md(tokens.sentence) + ".")
      lines.append("")
      lines.append("| Finding | Purchases | Accounts |")
      lines.append("|---|---:|---:|")
      for finding in TokenFinding.allCases {
        lines.append(
          "| \(TokenAuditStatistics.label(finding)) | \(ReportFormatting.count(tokens.purchases[finding] ?? 0)) "
            + "| \(ReportFormatting.count(tokens.accounts[finding] ?? 0)) |")
      }
      lines.append("")
      if !tokens.writes.isEmpty {
        lines.append("| Account | Original transaction | Token now | Token for the account | Why |")
        lines.append("|---|---|---|---|---|")
        for (account, purchase) in tokens.writes.prefix(ChangeText.listedInSummaries) {
          lines.append(
            "| \(md(account)) | `\(code(purchase.originalTransactionId))` | "
              + "`\(code(purchase.currentToken ?? "none"))` | `\(code(purchase.expectedToken ?? ""))` | "
              + "\(md(TokenAuditStatistics.reason(purchase))) |")
        }
        lines.append("")
      }
    }

    lines.append("## Requests")
    lines.append("")
    if summary.requests.isEmpty {
      lines.append("No App Store Server API requests were sent.")
    } else {
      lines.append("| Endpoint | Requests | Successes | Retries | 429s | Failures |")
      lines.append("|---|---:|---:|---:|---:|---:|")
      for endpoint in summary.requests {
        lines.append("| `\(code(endpoint.endpoint))` | " + numbers(RequestTotals(endpoint)))
      }
      lines.append("| **Total** | " + numbers(RequestTotals(summary.requests)))
      if let rate = RateShareText.sentence(summary) {
        lines.append("")
        lines.append("Requests were " + md(rate) + ".")
      }
    }
    lines.append("")

    lines.append("## Run")
    lines.append("")
    let inputs = summary.inputs
    lines.append(
      "- \(summary.startedAt.iso8601) to \(summary.finishedAt.iso8601) "
        + "(\(ReportFormatting.duration(milliseconds: summary.durationMilliseconds))), "
        + "receipt-migrate \(md(summary.toolVersion))")
    if !summary.stageDurations.isEmpty {
      lines.append("- Stages: " + ReportFormatting.stages(summary.stageDurations, escape: md))
    }
    lines.append(
      "- Legacy records: \(ReportFormatting.records(inputs)); "
        + "\(ReportFormatting.count(inputs.accounts)) accounts in the store")
    lines.append("")
    lines.append("## The full report")
    lines.append("")
    lines.append(
      "Open `report.html` in this folder in any browser: it is one self-contained file with "
        + "the charts and every account, filterable, with its evidence. "
        + "`discrepancies.csv` (spreadsheets) and `discrepancies.ndjson` (scripts) hold one "
        + "line per account; `run.json` holds these figures. "
        + "`receipt-migrate explain <account-id>` prints one account in the terminal.")
    return lines.joined(separator: "\n") + "\n"
  }

  /// What an audit leads with: what changed since the last run, on each side, and how current
  /// the App Store data is.
  private func auditLead() -> [String] {
    var lines: [String] = []
    if let since = content.summary.since {
      lines.append(
        "Compared with run `\(code(since.previousRunId))` (as of \(since.previousAsOf.iso8601)):")
      lines.append("")
      lines.append("- " + md(ChangeText.newFindings(since)))
      lines.append("- " + md(ChangeText.otherMoves(since)))
    }
    if let refresh = content.summary.refresh {
      lines.append("- " + md(FreshnessText.line(refresh)))
    }
    lines.append("")
    return lines
  }

  /// "What to do first": one numbered line per ``ReportAction``, in ``ActionList`` order.
  private func actions() -> [String] {
    let actions = ActionList.of(
      content.statistics, summary: content.summary,
      lostNotifications: content.summary.lostNotifications)
    guard !actions.isEmpty else { return [] }
    var lines = ["## What to do first", ""]
    for (index, action) in actions.enumerated() {
      var line =
        "\(index + 1). **\(md(action.subject))**"
        + (action.reason.isEmpty ? "" : " " + md(action.reason))
        + (action.moneyText.map { " (\(md($0)))" } ?? "") + ": " + md(action.advice)
        + (action.detail.map { " (\(md($0)))" } ?? "")
      if let command = action.command { line += " with `\(code(command))`" }
      lines.append(line + ".")
    }
    lines.append("")
    return lines
  }

  /// Accounts by impact, matches first, each with its share of `total`.
  private func impactTable(
    match: Int, count: (DiscrepancyCategory.Impact) -> Int, total: Int
  ) -> [String] {
    var lines = ["| Accounts | Count | Share |", "|---|---:|---:|", row("match", match, total)]
    for impact in [
      DiscrepancyCategory.Impact.losesAccess, .gainsAccess, .changesTerms, .needsAttention,
    ] {
      lines.append(row(ReportFormatting.headline(impact), count(impact), total))
    }
    return lines
  }

  private func row(_ label: String, _ count: Int, _ total: Int) -> String {
    "| \(label) | \(ReportFormatting.count(count)) | \(ReportFormatting.share(count, of: total)) |"
  }

  private func numbers(_ totals: RequestTotals) -> String {
    [totals.requests, totals.successes, totals.retries, totals.rateLimited, totals.failures]
      .map(ReportFormatting.count).joined(separator: " | ") + " |"
  }

  private func md(_ text: String) -> String { MarkdownText.escape(text) }

  /// Text inside a code span: backticks cannot be escaped there, so they become `'`; line
  /// breaks become spaces.
  private func code(_ text: String) -> String {
    String(
      text.unicodeScalars.map { scalar -> Character in
        switch scalar {
        case "`": return "'"
        case "\n", "\r", "\t", "|": return scalar == "|" ? "¦" : " "
        default:
          return scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
            ? "\u{FFFD}" : Character(scalar)
        }
      })
  }
}
