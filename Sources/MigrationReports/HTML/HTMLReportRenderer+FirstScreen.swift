import Entitlements

// MARK: - The first screen: what changed (audits), and what to do first

extension HTMLReportRenderer {
  /// What an audit leads with, above the headline: the run it is compared with, the new
  /// findings on each side (a link to them), what else moved, and how current the App Store
  /// data is.
  func auditLead() -> String {
    guard let since = summary.since else { return "" }
    var html = "<section id=\"lead\" tabindex=\"-1\" aria-labelledby=\"lead-title\">\n"
    html +=
      "<h2 id=\"lead-title\">Since run <code>\(e(since.previousRunId))</code> "
      + "<span class=\"when\">(as of <time datetime=\"\(since.previousAsOf.iso8601)\">"
      + "\(since.previousAsOf.iso8601)</time>)</span></h2>\n<ul class=\"lead\">\n"
    let newFindings = e(ChangeText.newFindings(since))
    let anyNew =
      (since.primary.map { $0[.newFinding] > 0 } ?? false)
      || (since.table.map { $0[.newFinding] > 0 } ?? false)
    if anyNew {
      let filter: String
      switch (since.primary, since.table) {
      case (_, nil): filter = "change=new_finding"
      case (nil, _): filter = "change=table:new_finding"
      default: filter = "change=either:new_finding"
      }
      html += "<li id=\"lead-new\"><a href=\"#\(filter)\">\(newFindings)</a></li>\n"
    } else {
      html += "<li id=\"lead-new\">\(newFindings)</li>\n"
    }
    html +=
      "<li>\(e(ChangeText.otherMoves(since))) · <a href=\"#since\">every change</a></li>\n"
    if let refresh = summary.refresh {
      html += "<li id=\"lead-freshness\">\(e(FreshnessText.line(refresh)))</li>\n"
    }
    return html + "</ul>\n</section>\n"
  }

  /// "What to do first": one line per ``ReportAction``, in ``ActionList`` order, each a link to
  /// the accounts (or the section) it names.
  func actions() -> String {
    let actions = ActionList.of(
      statistics, summary: summary, lostNotifications: summary.lostNotifications)
    var html = "<section id=\"actions\" aria-labelledby=\"actions-title\">\n"
    html += "<h2 id=\"actions-title\">What to do first</h2>\n"
    guard !actions.isEmpty else {
      let accounts =
        statistics.accounts == 0 ? "No account was compared" : "Every account matches"
      return html
        + "<p>Nothing to act on: \(accounts.prefix(1).lowercased() + accounts.dropFirst()), "
        + "and this run reports no lost notification.</p>\n</section>\n"
    }
    html += "<ol class=\"actions\">\n"
    for action in actions {
      html += "<li class=\"tone-\(tone(action))\"><a href=\"\(e(action.target.fragment))\">"
      html += "<strong>\(e(action.subject))</strong>"
      if !action.reason.isEmpty { html += " \(e(action.reason))" }
      html += "</a>"
      if let money = action.moneyText { html += " <span class=\"money\">(\(e(money)))</span>" }
      html += ": <span class=\"advice\">\(e(action.advice))</span>"
      if let detail = action.detail { html += " <span class=\"detail\">(\(e(detail)))</span>" }
      if let command = action.command {
        html += " with <code class=\"command\">\(e(command))</code>"
      }
      html += "</li>\n"
    }
    return html + "</ol>\n</section>\n"
  }

  private func tone(_ action: ReportAction) -> String {
    switch action.kind {
    case .accounts(.logicLosesAccess), .accounts(.tableWrong): return "lose"
    case .accounts(.logicGainsAccess): return "gain"
    case .accounts(.logicChangesTerms): return "term"
    case .accounts(.freshness): return "same"
    case .accounts(.needsAttention), .accounts(.undetermined), .lostNotifications: return "attn"
    }
  }
}
