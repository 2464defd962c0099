import CryptoSupport
import Entitlements
import Foundation
import LegacyReceipts

/// Renders `report.html`: one self-contained page (inline CSS, inline SVG, a little inline
/// script; nothing loaded from anywhere) for a person to open in a browser.
///
/// The page reads top to bottom in order of what matters: for an audit, what changed since the
/// last run and how current the data is; the headline numbers; what to do first, one line per
/// thing to act on, ordered by money at stake, each a link to the accounts it names; what
/// changes for customers (categories), how statuses move (transition matrix) and how expiries
/// shift (histogram), the team table when one was compared, every account with its evidence,
/// and the run's facts. Everything renders without the script; the script adds the filters,
/// the search and the navigation that takes a link to the list it filters (``HTMLAssets``).
struct HTMLReportRenderer {
  let content: ReportContent

  var summary: RunSummary { content.summary }
  var statistics: ReportStatistics { content.statistics }

  func render() -> String {
    var output = ReportOutput()
    render(into: &output)
    return String(decoding: output.bytes, as: UTF8.self)
  }

  func render(into output: inout ReportOutput) {
    let accounts = content.accounts
    let asOf = summary.asOf
    let options = content.options
    render(into: &output) { output in
      var rows = HTMLAccountRows(asOf: asOf, options: options, changes: content.context.changes)
      for account in accounts.prefix(rows.rowLimit) { rows.add(account, to: &output) }
    }
  }

  /// Renders the page around account rows that `rows` writes in place.
  func render(into output: inout ReportOutput, rows: (inout ReportOutput) -> Void) {
    var html = ""
    html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    // Nothing may load from anywhere, and only this page's own style sheet and script may run:
    // a report that escaped an account id wrongly still could not execute it.
    html +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      + "style-src '\(Self.hash(HTMLAssets.style))'; script-src '\(Self.hash(HTMLAssets.script))'; "
      + "img-src 'none'; base-uri 'none'; form-action 'none'\">\n"
    html += "<meta name=\"generator\" content=\"receipt-migrate \(e(summary.toolVersion))\">\n"
    html +=
      "<title>\(summary.isAudit ? "Nightly audit" : "Migration report") \(e(summary.runId))</title>\n"
    html += "<style>\(HTMLAssets.style)</style>\n</head>\n<body>\n"
    html += header()
    html += "<main>\n"
    if summary.isAudit { html += auditLead() }
    html += headline()
    html += actions()
    html += sinceLastRun()
    html += trend()
    html += categories()
    html += valueSections()
    html += "<div class=\"pair\">\n" + transitions() + expiryDifferences() + "</div>\n"
    if summary.comparedTeamTable || statistics.accountsWithTable > 0 {
      html += teamTable()
    }
    html += refreshFacts()
    html += lostNotifications()
    html += pendingNotifications()
    html += coverage()
    html += accountTokens()
    output.write(html)
    // The accounts are most of the file: written row by row, not gathered first.
    appendAccounts(into: &output, rows: rows)
    html = runDetails()
    html += "</main>\n"
    html +=
      "<footer><p>Written by receipt-migrate \(e(summary.toolVersion)) for run "
      + "<code>\(e(summary.runId))</code>. This file is self-contained: it loads nothing from "
      + "the network or from other files. The same data is in <code>summary.md</code>, "
      + "<code>discrepancies.csv</code>, <code>discrepancies.ndjson</code>, "
      + "<code>discrepancy-keys.csv</code> and <code>run.json</code> beside it.</p></footer>\n"
    html += "<script>\(HTMLAssets.script)</script>\n</body>\n</html>\n"
    output.write(html)
  }

  // MARK: - Header and headline

  private func header() -> String {
    var html = "<header>\n"
    if summary.isAudit {
      html += "<p class=\"eyebrow\">receipt-migrate · nightly audit</p>\n"
      html += "<h1>Nightly audit: your entitlements against the App Store Server API</h1>\n"
    } else {
      html += "<p class=\"eyebrow\">receipt-migrate · migration report</p>\n"
      html += "<h1>Old receipt logic compared with the App Store Server API</h1>\n"
    }
    html +=
      "<p class=\"meta\">Run <code>\(e(summary.runId))</code> · compared as of "
      + "<time datetime=\"\(summary.asOf.iso8601)\">\(summary.asOf.iso8601)</time> · "
      + "\(e(summary.appStore.description))</p>\n"
    if summary.appStore.isSimulated {
      html +=
        "<p class=\"banner simulated\" id=\"simulated\"><strong>Simulated App Store.</strong> "
        + "Every App Store answer here came from the built-in simulator, not from Apple: it "
        + "shows what the tool does, not what your customers have.</p>\n"
    }
    if let failOn = summary.failOn {
      let tally = failOn.tally.map { ": \(e($0))" } ?? ""
      html +=
        failOn.isCrossed
        ? "<p class=\"banner crossed\" id=\"banner-threshold\"><strong>Threshold crossed.</strong> "
          + "The run crossed <code>--fail-on \(e(failOn.expression))</code>\(tally), and exits "
          + "with code 1.</p>\n"
        : "<p class=\"banner \(summary.exitCode == 4 || !failOn.unevaluated.isEmpty ? "crossed" : "passed")\" "
          + "id=\"banner-threshold\">"
          + ThresholdText.sentence(
            failOn, exitCode: summary.exitCode, flag: { "<code>\(e($0))</code>" }, escape: e)
          + "</p>\n"
    }
    // What a reader must know before trusting the numbers below.
    if summary.inputs.recordsQuarantined > 0 {
      html +=
        "<p class=\"banner crossed\" id=\"banner-quarantine\"><strong>Inputs quarantined.</strong> "
        + "\(ReportFormatting.count(summary.inputs.recordsQuarantined)) legacy record(s) could not "
        + "be read; their accounts may be missing or incomplete (see <code>ingest</code>'s "
        + "summary).</p>\n"
    }
    if summary.inputs.recordsPartial > 0 {
      html +=
        "<p class=\"banner crossed\" id=\"banner-partial\"><strong>Fields set aside.</strong> "
        + "\(ReportFormatting.count(summary.inputs.recordsPartial)) legacy record(s) had fields "
        + "that could not be used (masked or malformed ids, wrong types); the rest of each was "
        + "read (<code>explain</code> shows an account's).</p>\n"
    }
    if !summary.appStore.isSimulated && summary.appStore.description.contains("NOT Apple") {
      html +=
        "<p class=\"banner crossed\" id=\"banner-not-apple\"><strong>Not Apple.</strong> "
        + "\(e(summary.appStore.description)).</p>\n"
    }
    let verificationFailures = summary.requests.reduce(0) { $0 + $1.verificationFailures }
    if verificationFailures > 0 {
      html +=
        "<p class=\"banner crossed\" id=\"banner-verification\"><strong>Signed data refused."
        + "</strong> \(ReportFormatting.count(verificationFailures)) answer(s) failed "
        + "verification and were not used; their accounts are unresolved.</p>\n"
    }
    let stale = statistics.count(.staleAppStoreData)
    if stale > 0 {
      html +=
        "<p class=\"banner crossed\" id=\"banner-stale\"><strong>Stale App Store data.</strong> "
        + "\(ReportFormatting.accounts(stale)) could not be refreshed in time and are not "
        + "compared (<code>stale_app_store_data</code>); the next audit asks them first.</p>\n"
    }
    if content.options.isRedacted {
      html +=
        "<p class=\"banner redacted\"><strong>Pseudonymised.</strong> Account ids and App Store "
        + "customer keys are replaced by keyed hashes (<code>acct_…</code>, <code>cust_…</code>); "
        + "the same account has the same pseudonym in every report made with the same salt.</p>\n"
    }
    return html + "</header>\n"
  }

  private func headline() -> String {
    let total = statistics.accounts
    var html = "<section class=\"cards\" id=\"headline\" aria-label=\"Headline numbers\">\n"
    // Each card but the total filters the account table (a fragment, so a view can be shared).
    func card(
      _ tone: String, _ number: String, _ label: String, _ detail: String, id: String,
      filter: String? = nil
    ) {
      let inner =
        "<span class=\"n\">\(number)</span><span class=\"l\">\(label)</span>"
        + "<span class=\"s\">\(detail)</span>"
      html +=
        filter.map {
          "<a class=\"card tone-\(tone)\" id=\"\(id)\" href=\"#\($0)\">\(inner)</a>\n"
        } ?? "<div class=\"card tone-\(tone)\" id=\"\(id)\">\(inner)</div>\n"
    }
    card(
      "total", ReportFormatting.count(total), "accounts",
      "\(ReportFormatting.count(statistics.keys)) keys compared", id: "headline-accounts")
    card(
      "same", ReportFormatting.share(statistics.count(DiscrepancyCategory.match), of: total),
      "match",
      ReportFormatting.accounts(statistics.count(DiscrepancyCategory.match)),
      id: "headline-match", filter: "category=match")
    for impact in [
      DiscrepancyCategory.Impact.losesAccess, .gainsAccess, .changesTerms, .needsAttention,
    ] {
      let count = statistics.count(impact)
      card(
        ReportFormatting.tone(impact), ReportFormatting.count(count),
        ReportFormatting.headline(impact),
        ReportFormatting.share(count, of: total), id: "headline-\(impact.rawValue)",
        filter: "impact=\(impact.rawValue)")
    }
    let unresolved = statistics.count(.unresolved)
    card(
      "attn", ReportFormatting.count(unresolved), "unresolved",
      unresolved == 0 ? "every id resolved" : "could not be decided", id: "headline-unresolved",
      filter: "category=unresolved")
    return html + "</section>\n"
  }

  // MARK: - Charts

  private func categories() -> String {
    let total = statistics.accounts
    let matches = statistics.count(DiscrepancyCategory.match)
    // Matches are left out of the chart: they are usually most accounts, would shrink every
    // other bar to a sliver, and the headline already gives their share.
    let rows = DisplayOrder.categories.filter { $0 != .match && statistics.count($0) > 0 }.map {
      category in
      let count = statistics.count(category)
      let share = ReportFormatting.share(count, of: total)
      return HorizontalBarChart.Row(
        label: category.title, value: count,
        valueText: "\(ReportFormatting.count(count)) · \(share)",
        tone: ReportFormatting.tone(category.impact),
        title:
          "\(category.title) (\(category.rawValue)): \(ReportFormatting.count(count)) of "
          + "\(ReportFormatting.count(total)) accounts, \(share); \(ReportFormatting.impact(category.impact))",
        link: "#category=\(category.rawValue)"
      )
    }
    var html = "<section id=\"categories\">\n<h2>What changes for customers</h2>\n"
    if total == 0 {
      return html + "<p>No accounts were compared.</p>\n</section>\n"
    }
    if rows.isEmpty {
      return html
        + "<p>Every account matches: switching changes nothing for any customer.</p>\n</section>\n"
    }
    html +=
      "<p class=\"note\">Accounts that do not match, by category, losses of access first; the "
      + "\(ReportFormatting.accounts(matches)) that match (\(ReportFormatting.share(matches, of: total))) "
      + "are not drawn. Each account has exactly one category; its other findings are in its "
      + "evidence below.</p>\n"
    html += HorizontalBarChart(rows: rows).bothLayouts(
      id: "category-chart", title: "Accounts by category")
    html += "\n" + causes()
    return html + "</section>\n"
  }

  /// Each key-level category split by cause: *logic* (the two sides read the same moment
  /// differently: what the switch itself changes) and *freshness* (the snapshot was old).
  private func causes() -> String {
    let caused = DisplayOrder.categories.filter {
      $0 != .match && statistics.count($0) > 0 && statistics.hasCauses($0)
    }
    guard !caused.isEmpty else { return "" }
    var html =
      "<h3>Logic or freshness</h3>\n<p class=\"note\"><b>Logic</b>: the old and the new logic "
      + "read the same moment differently — what switching itself changes. <b>Freshness</b>: "
      + "the stored receipt was older than what happened since — expected, and not a reason to "
      + "doubt the switch.</p>\n"
    html += "<table id=\"causes\"><thead><tr><th>Category</th><th class=\"num\">Accounts</th>"
    html += "<th class=\"num\">Logic</th><th class=\"num\">Freshness</th></tr></thead><tbody>\n"
    var (accounts, logic, freshness) = (0, 0, 0)
    for category in caused {
      accounts += statistics.count(category)
      let inLogic = statistics.count(category, cause: .logic)
      let inFreshness = statistics.count(category, cause: .freshness)
      logic += inLogic
      freshness += inFreshness
      html +=
        "<tr><td><a href=\"#category=\(category.rawValue)\">\(e(category.title))</a></td>"
        + "<td class=\"num\">\(ReportFormatting.count(statistics.count(category)))</td>"
        + "<td class=\"num\">\(ReportFormatting.count(inLogic))</td>"
        + "<td class=\"num\">\(ReportFormatting.count(inFreshness))</td></tr>\n"
    }
    html +=
      "</tbody><tfoot><tr><th>All</th><td class=\"num\">\(ReportFormatting.count(accounts))</td>"
      + "<td class=\"num\">\(ReportFormatting.count(logic))</td>"
      + "<td class=\"num\">\(ReportFormatting.count(freshness))</td></tr></tfoot></table>\n"
    return html
  }

  private func transitions() -> String {
    let matrix = statistics.transitions
    var html = "<section id=\"transitions\">\n<h2>Old status → new status</h2>\n"
    html +=
      "<p class=\"note\">Entitlement keys by their status under the old logic (rows) and the new "
      + "logic (columns), both as of \(summary.asOf.iso8601). <em>none</em>: that side knows "
      + "nothing of the key.</p>\n"
    html += "<div class=\"scroll\"><table class=\"matrix\" id=\"transition-matrix\">\n"
    html += "<thead><tr><th class=\"corner\" scope=\"col\">old ↓ new →</th>"
    for new in StatusTransitions.states {
      html += "<th scope=\"col\">\(StatusTransitions.title(new))</th>"
    }
    html += "</tr></thead>\n<tbody>\n"
    let maximum = matrix.maximum
    for old in StatusTransitions.states {
      html += "<tr><th scope=\"row\">\(StatusTransitions.title(old))</th>"
      for new in StatusTransitions.states {
        let count = matrix.count(old: old, new: new)
        let kind = StatusTransitions.kind(old: old, new: new)
        let title =
          "\(ReportFormatting.count(count)) keys: old \(StatusTransitions.label(old)), "
          + "new \(StatusTransitions.label(new))"
        if count == 0 {
          html += "<td title=\"\(title)\"></td>"
        } else {
          let level = max(
            1,
            Int(
              (Double(count) / Double(max(maximum, 1)) * Double(HTMLAssets.shadingLevels)).rounded(
                .up)))
          html +=
            "<td class=\"\(kind.rawValue) s\(min(level, HTMLAssets.shadingLevels))\" title=\"\(title)\">\(ReportFormatting.count(count))</td>"
        }
      }
      html += "</tr>\n"
    }
    html += "</tbody>\n</table></div>\n"
    html +=
      "<p class=\"legend\"><span class=\"k-lose\">loses access</span><span class=\"k-gain\">gains "
      + "access</span><span class=\"k-relabel\">other change</span><span class=\"k-same\">same "
      + "status</span></p>\n"
    return html + "</section>\n"
  }

  private func expiryDifferences() -> String {
    let histogram = statistics.expiryDifferences
    var html = "<section id=\"expiry\">\n<h2>Expiry differences</h2>\n"
    html +=
      "<p class=\"note\">Keys where both sides have an expiry: the App Store's expiry minus the "
      + "old logic's, in days. Left of centre, the App Store ends access earlier; ±1 is within "
      + "the comparison's default tolerance.</p>\n"
    if histogram.total == 0 {
      html += "<p>No key has an expiry on both sides.</p>\n"
    } else {
      let columns = ExpiryDifferenceHistogram.Bucket.allCases.map { bucket in
        let count = histogram.count(bucket)
        let tone: String
        switch bucket {
        case .withinOneDay: tone = "same"
        case .atMostMinus30, .minus30ToMinus7, .minus7ToMinus1: tone = "lose"
        case .plus1ToPlus7, .plus7ToPlus30, .atLeastPlus30: tone = "gain"
        }
        return ColumnChart.Column(
          label: bucket.label, value: count, tone: tone,
          title: "\(ReportFormatting.count(count)) keys: \(bucket.meaning)")
      }
      let title =
        "Expiry differences, new minus old, of \(ReportFormatting.count(histogram.total)) keys"
      html += ColumnChart(columns: columns).svg(id: "expiry-chart", title: title)
      html += "\n"
      // On a phone the columns' labels would not fit side by side: the same counts as bars.
      let bars = columns.map {
        HorizontalBarChart.Row(
          label: "\($0.label) days", value: $0.value, valueText: ReportFormatting.count($0.value),
          tone: $0.tone, title: $0.title)
      }
      html += HorizontalBarChart(rows: bars, layout: .narrow).svg(
        id: "expiry-chart-narrow", title: title)
      html += "\n"
    }
    return html + "</section>\n"
  }

  private func teamTable() -> String {
    var html =
      "<section id=\"team-table\">\n<h2>Your entitlement table against the App Store</h2>\n"
    let file = summary.teamTableFile.map { " (<code>\(e($0))</code>)" } ?? ""
    html +=
      "<p class=\"note\">Your table\(file) compared with the App Store by the same rules, for "
      + "\(ReportFormatting.count(statistics.accountsWithTable)) accounts. It never changes an "
      + "account's category; it shows what your live system decides today.</p>\n"
    // The table's own headline: what the live system gets wrong today.
    html += "<div class=\"cards\" id=\"table-headline\" aria-label=\"Your table today\">\n"
    let tabled = statistics.accountsWithTable
    let matching = statistics.tableCount(DiscrepancyCategory.match)
    html +=
      "<div class=\"card tone-same\" id=\"table-headline-match\"><span class=\"n\">"
      + "\(ReportFormatting.share(matching, of: tabled))</span><span class=\"l\">match</span>"
      + "<span class=\"s\">\(ReportFormatting.accounts(matching))</span></div>\n"
    for impact in [
      DiscrepancyCategory.Impact.losesAccess, .gainsAccess, .changesTerms, .needsAttention,
    ] {
      let count = statistics.tableCount(impact)
      html +=
        "<div class=\"card tone-\(ReportFormatting.tone(impact))\" id=\"table-headline-\(impact.rawValue)\">"
        + "<span class=\"n\">\(ReportFormatting.count(count))</span>"
        + "<span class=\"l\">\(ReportFormatting.headline(impact))</span>"
        + "<span class=\"s\">\(ReportFormatting.share(count, of: tabled))</span></div>\n"
    }
    html += "</div>\n"
    let rows = DisplayOrder.categories.filter { statistics.tableCount($0) > 0 }.map { category in
      let count = statistics.tableCount(category)
      let share = ReportFormatting.share(count, of: statistics.accountsWithTable)
      return HorizontalBarChart.Row(
        label: category.title, value: count,
        valueText: "\(ReportFormatting.count(count)) · \(share)",
        tone: ReportFormatting.tone(category.impact),
        title:
          "Table \(category.title) (\(category.rawValue)): \(ReportFormatting.count(count)) accounts, "
          + "\(share); \(ReportFormatting.impact(category.impact))",
        link: "#table=\(category.rawValue)")
    }
    if !rows.isEmpty {
      html += HorizontalBarChart(rows: rows).bothLayouts(
        id: "table-chart", title: "Accounts by table category")
      html += "\n"
    }
    let flaws = LegacyLogicFlaw.allCases.sorted().filter { statistics.count($0) > 0 }
    if !flaws.isEmpty {
      html += "<h3>Suspected bugs in your legacy logic</h3>\n"
      html += "<div class=\"scroll\"><table id=\"suspected-flaws\"><thead><tr><th>Bug</th>"
      html += "<th>What it does</th>"
      html += "<th class=\"num\">Accounts</th></tr></thead><tbody>\n"
      for flaw in flaws {
        html +=
          "<tr><td><code>\(flaw.rawValue)</code></td><td>\(e(flaw.explanation))</td>"
          + "<td class=\"num\">\(ReportFormatting.count(statistics.count(flaw)))</td></tr>\n"
      }
      html += "</tbody></table></div>\n"
    }
    return html + "</section>\n"
  }

  // MARK: - Helpers

  func e(_ text: String) -> String { HTMLText.escape(text) }

  /// The CSP source of an inline element: `sha256-<base64 of the digest>`.
  static func hash(_ text: String) -> String {
    "sha256-" + Data(SHA256.hash(Array(text.utf8))).base64EncodedString()
  }
}
