import Entitlements

// MARK: - What a nightly audit reads: changes since the last run, the refresh, lost notifications

extension HTMLReportRenderer {
  /// The most changed accounts and lost notifications listed on the page; the CSV files beside
  /// it hold them all.
  static let auditRowLimit = 2_000

  /// "Since the last run": how many accounts moved in each way (a chart per side) and the
  /// accounts whose category changed.
  func sinceLastRun() -> String {
    guard let since = content.summary.since else { return "" }
    var html = "<section id=\"since\" tabindex=\"-1\">\n<h2>Since the last run</h2>\n"
    html +=
      "<p class=\"note\">Compared with run <code>\(e(since.previousRunId))</code> (as of "
      + "<time datetime=\"\(since.previousAsOf.iso8601)\">\(since.previousAsOf.iso8601)</time>)"
      + (since.newAccounts > 0
        ? "; \(ReportFormatting.accounts(since.newAccounts)) are new to the store" : "")
      + ". A new finding was a match (or new) and now differs; resolved is the reverse; a "
      + "persisting finding has the same category as before. <em>Primary</em> is the old logic "
      + "against the App Store; <em>your table</em> is your entitlement table against it.</p>\n"
    for difference in since.inputDifferences {
      html += "<p class=\"banner crossed\"><strong>Inputs differ.</strong> \(e(difference)).</p>\n"
    }
    if let primary = since.primary {
      html += "<h3>Primary</h3>\n"
      html += chart(
        primary, side: "", id: "since-chart", title: "Primary category since the last run")
    }
    if let table = since.table {
      html += "<h3>Your entitlement table</h3>\n"
      html += chart(
        table, side: "table:", id: "since-table-chart", title: "Table category since the last run")
    }
    let changes = content.context.changes
    if changes.isEmpty {
      html += "<p>No account changed category.</p>\n"
    } else {
      html += "<div class=\"scroll\"><table id=\"changes\"><thead><tr><th>Account</th>"
      html += "<th>Primary</th><th>Team table</th></tr></thead><tbody>\n"
      for change in changes.prefix(Self.auditRowLimit) {
        html +=
          "<tr><td class=\"id\">\(HTMLAccountLink.to(change.accountId))</td><td>\(move(change.primary))</td>"
          + "<td>\(move(change.table))</td></tr>\n"
      }
      html += "</tbody></table></div>\n"
      if changes.count > Self.auditRowLimit {
        html +=
          "<p class=\"note\">The first \(ReportFormatting.count(Self.auditRowLimit)) of "
          + "\(ReportFormatting.count(changes.count)) changed accounts; <code>changes.csv</code> "
          + "lists them all.</p>\n"
      }
    }
    return html + "</section>\n"
  }

  /// One side's moves as bars, each but persisting a link to the accounts that moved so.
  ///
  /// - Parameter side: the side's prefix in the `change` filter: empty (primary) or `table:`.
  private func chart(_ counts: ChangeCounts, side: String, id: String, title: String) -> String {
    let tones: [ChangeKind: String] = [
      .newFinding: "lose", .resolved: "gain", .categoryChanged: "term", .persisting: "attn",
    ]
    let rows = ChangeKind.allCases.map { kind in
      HorizontalBarChart.Row(
        label: kind.title, value: counts[kind], valueText: ReportFormatting.count(counts[kind]),
        tone: tones[kind] ?? "total",
        title: "\(kind.title): \(ReportFormatting.accounts(counts[kind]))",
        // Persisting accounts are counted, not marked on their rows: nothing to filter by.
        link: kind == .persisting || counts[kind] == 0 ? nil : "#change=\(side)\(kind.rawValue)")
    }
    return HorizontalBarChart(rows: rows).bothLayouts(id: id, title: title) + "\n"
  }

  private func move(_ change: CategoryChange?) -> String {
    guard let change else { return "" }
    return "\(e(change.arrow)) <span class=\"note\">(\(e(change.kind.title)))</span>"
  }

  /// The refresh of the App Store side: what it read and did, and what it left for next time.
  func refreshFacts() -> String {
    guard let refresh = content.summary.refresh else { return "" }
    var html = "<section id=\"refresh\" tabindex=\"-1\">\n<h2>App Store refresh</h2>\n"
    html += "<p>\(e(refresh.sentence)).</p>\n"
    if refresh.stillDue > 0 {
      html +=
        "<p class=\"banner crossed\"><strong>\(ReportFormatting.count(refresh.stillDue)) "
        + "customer(s) still due.</strong> Their accounts are <code>stale_app_store_data</code> "
        + "in this report; the next run asks them first.</p>\n"
    }
    for warning in refresh.warnings {
      html += "<p class=\"banner crossed\"><strong>Warning.</strong> \(e(warning))</p>\n"
    }
    if !refresh.watermarks.isEmpty {
      html +=
        "<p class=\"note\">App Store data current through: "
        + refresh.watermarks.sorted { $0.key < $1.key }.map {
          "\(e($0.key)) <time datetime=\"\($0.value.iso8601)\">\($0.value.iso8601)</time>"
        }.joined(separator: ", ") + ".</p>\n"
    }
    for (feed, line) in zip(refresh.feeds, FeedHealthText.lines(content.summary)) {
      html +=
        feed.needsAttention
        ? "<p class=\"banner crossed\" id=\"feed-\(e(feed.environment))\">\(e(line)).</p>\n"
        : "<p class=\"note\" id=\"feed-\(e(feed.environment))\">\(e(line)).</p>\n"
    }
    if let age = FeedHealthText.dataAge(content.summary) {
      html += "<p class=\"note\" id=\"data-age\">\(e(age)).</p>\n"
    }
    return html + "</section>\n"
  }

  /// The `appAccountToken` audit: counts per finding and the purchases a link would change,
  /// association leaks first.
  func accountTokens() -> String {
    guard let tokens = content.tokens else { return "" }
    var html = "<section id=\"account-tokens\">\n<h2>Account tokens</h2>\n"
    html +=
      "<p class=\"note\">Every purchase's <code>appAccountToken</code> against your mapping "
      + "(\(e(summary.tokenMapping ?? ""))): \(e(tokens.sentence)).</p>\n"
    html += "<table id=\"token-findings\"><thead><tr><th>Finding</th><th>Purchases</th>"
    html += "<th>Accounts</th></tr></thead><tbody>\n"
    for finding in TokenFinding.allCases {
      html +=
        "<tr><td>\(e(TokenAuditStatistics.label(finding)))</td>"
        + "<td class=\"num\">\(ReportFormatting.count(tokens.purchases[finding] ?? 0))</td>"
        + "<td class=\"num\">\(ReportFormatting.count(tokens.accounts[finding] ?? 0))</td></tr>\n"
    }
    html += "</tbody></table>\n"
    if !tokens.writes.isEmpty {
      html += "<div class=\"scroll\"><table id=\"token-writes\"><thead><tr><th>Account</th>"
      html += "<th>Original transaction</th><th>Token now</th><th>Token for the account</th>"
      html += "<th>Why</th></tr></thead><tbody>\n"
      for (account, purchase) in tokens.writes.prefix(Self.auditRowLimit) {
        html +=
          "<tr><td class=\"id\">\(HTMLAccountLink.to(account))</td>"
          + "<td><code>\(e(purchase.originalTransactionId))</code></td>"
          + "<td><code>\(e(purchase.currentToken ?? "none"))</code></td>"
          + "<td><code>\(e(purchase.expectedToken ?? ""))</code></td>"
          + "<td>\(e(TokenAuditStatistics.reason(purchase)))</td></tr>\n"
      }
      html += "</tbody></table></div>\n"
    }
    return html + "</section>\n"
  }

  /// The notifications Apple never delivered to the team's server, with the command that
  /// replays them.
  func lostNotifications() -> String {
    let lost = content.context.lostNotifications
    guard !lost.isEmpty else { return "" }
    var html =
      "<section id=\"lost-notifications\" tabindex=\"-1\">\n<h2>Lost notifications</h2>\n"
    html +=
      "<p class=\"note\">\(ReportFormatting.count(lost.count)) App Store Server Notification(s) "
      + "never reached your server. <code>lost-notifications.csv</code> lists them with their "
      + "signed payloads. To send them to your server as Apple would have, in order, and only "
      + "once each:</p>\n"
    html +=
      "<pre class=\"command\"><code>\(e(ActionList.replayCommand(runId: summary.runId)))"
      + "</code></pre>\n"
    html += "<div class=\"scroll\"><table id=\"lost\"><thead><tr>"
    for column in LostNotificationColumn.allCases { html += "<th>\(column.title)</th>" }
    html += "</tr></thead><tbody>\n"
    for notification in lost.prefix(Self.auditRowLimit) {
      html += "<tr>"
      for column in LostNotificationColumn.allCases {
        switch column {
        case .accounts:
          html +=
            "<td class=\"id\">\(notification.accounts.map(HTMLAccountLink.to).joined(separator: " "))</td>"
        default:
          let text = e(column.text(notification))
          html += column.isIdentifier ? "<td><code>\(text)</code></td>" : "<td>\(text)</td>"
        }
      }
      html += "</tr>\n"
    }
    html += "</tbody></table></div>\n"
    if lost.count > Self.auditRowLimit {
      html +=
        "<p class=\"note\">The first \(ReportFormatting.count(Self.auditRowLimit)) of "
        + "\(ReportFormatting.count(lost.count)); <code>lost-notifications.csv</code> lists "
        + "them all.</p>\n"
    }
    return html + "</section>\n"
  }

  /// "The first 2,000 of 3,100 … are listed here", or nothing when all are.
  ///
  /// - Parameters:
  ///   - count: how many there are.
  ///   - what: what they are, plural.
  /// - Returns: the note's HTML.
  func leftOut(_ count: Int, _ what: String) -> String {
    guard count > Self.auditRowLimit else { return "" }
    return "<p class=\"note\">The first \(ReportFormatting.count(Self.auditRowLimit)) of "
      + "\(ReportFormatting.count(count)) \(e(what)) are listed here.</p>\n"
  }
}
