import Chronology
import Entitlements

// MARK: - The accounts table

extension HTMLReportRenderer {
  /// The table of accounts: one `<tbody>` per account (so a filter hides an account whole),
  /// holding its row and, for the first accounts that do not match, a second row with the
  /// evidence in a `<details>`.
  func appendAccounts(into output: inout ReportOutput, rows: (inout ReportOutput) -> Void) {
    var html = ""
    let statistics = content.statistics
    let listed = content.accountsListedInHTML
    let evidenceLimit = content.accountsWithHTMLEvidence
    let discrepancies = statistics.accounts - statistics.count(DiscrepancyCategory.match)
    let listedDiscrepancies = min(listed, discrepancies)
    html += "<section id=\"discrepancies\" tabindex=\"-1\">\n<h2>Accounts</h2>\n"
    var note: String
    if listed < statistics.accounts {
      note =
        "The first \(ReportFormatting.count(listed)) of "
        + "\(ReportFormatting.count(statistics.accounts)) accounts, in the order above; the other "
        + "\(ReportFormatting.count(statistics.accounts - listed)) are left out so that this page "
        + "opens quickly, and are in <code>discrepancies.csv</code>. "
    } else {
      note = "Every account, in the order above. "
    }
    note +=
      "Open <em>Evidence</em> under an account that does not match to see each key as both logics "
      + "decide it, the legacy records, the ids and the customers. Matching accounts have no "
      + "evidence here"
    if evidenceLimit < listedDiscrepancies {
      note +=
        ", and only the first \(ReportFormatting.count(evidenceLimit)) of "
        + "\(ReportFormatting.count(listedDiscrepancies)) other accounts do, to keep this file small"
    }
    note +=
      "; every account's evidence is in <code>discrepancies.ndjson</code>, and "
      + "<code>receipt-migrate explain &lt;account-id&gt;</code> prints one in the terminal."
    html += "<p class=\"note\">\(note)</p>\n"
    html += "<div class=\"filters\" id=\"filters\" hidden>\n"
    html += "<label for=\"filter-category\">Show</label>\n<select id=\"filter-category\">"
    html += filterOptions(differing: discrepancies)
    html += "</select>\n<label for=\"filter-account\">Search</label>\n"
    html +=
      "<input id=\"filter-account\" type=\"search\" "
      + "placeholder=\"any id, category or words\" "
      + "autocomplete=\"off\" aria-describedby=\"filter-help\">\n"
    html +=
      "<span id=\"filter-count\" role=\"status\" aria-live=\"polite\" tabindex=\"-1\"></span>\n"
    html +=
      "<p id=\"filter-help\" class=\"note\">Enter goes to the first account shown; Escape "
      + "clears the filter. The address states the filter, so a view can be shared.</p>\n"
    html += "</div>\n"
    html +=
      "<div class=\"scroll\"><table id=\"accounts\" data-accounts=\"\(statistics.accounts)\">\n"
      + "<thead><tr><th data-sort=\"account\">Account</th><th data-sort=\"category\">Category</th>"
    html += "<th data-sort=\"impact\">Impact</th><th data-sort=\"cause\">Cause</th>"
    html += "<th data-sort=\"explanation\">Explanation</th><th data-sort=\"table\">Team table</th>"
    html += "</tr></thead>\n"
    output.write(html)
    html.removeAll(keepingCapacity: true)
    // The rows were rendered while the accounts streamed past (``HTMLAccountRows``).
    rows(&output)
    html += "</table></div>\n</section>\n"
    output.write(html)
  }

  /// The filter menu: every way the page's links filter the list, so that the menu always names
  /// the filter in force. Each option's value is the filter as the address writes it
  /// (`category=refund_missed`, `action=logic_loses_access`, `table=grace_missed`,
  /// `change=new_finding`), with its count of accounts; an address naming a filter the menu does
  /// not offer shows what differs.
  private func filterOptions(differing: Int) -> String {
    let statistics = content.statistics
    var html = ""
    func option(_ value: String, _ label: String, _ count: Int) {
      html +=
        "<option value=\"\(e(value))\">\(e(label)) (\(ReportFormatting.count(count)))</option>"
    }
    option("category=*", "Every account that differs", differing)
    option("category=", "Every account", statistics.accounts)
    let tally = statistics.actions
    let buckets = ActionBucket.allCases.filter { tally.count($0) > 0 }
    if !buckets.isEmpty {
      html += "<optgroup label=\"What to do\">"
      for bucket in buckets {
        option(ActionList.filter(bucket), ActionList.label(bucket), tally.count(bucket))
      }
      html += "</optgroup>"
    }
    html += "<optgroup label=\"Impact\">"
    for impact in DiscrepancyCategory.Impact.allCases where impact != .none {
      let label = ReportFormatting.headline(impact)
      option(
        "impact=\(impact.rawValue)", label.prefix(1).uppercased() + label.dropFirst(),
        statistics.count(impact))
    }
    html += "</optgroup>"
    if let since = summary.since {
      html += "<optgroup label=\"Since the last run\">"
      if let either = since.accountsWithNewFindings, since.table != nil {
        option("change=either:new_finding", "New findings, either side", either)
      }
      for kind in ChangeKind.allCases where kind != .persisting {
        if let primary = since.primary {
          option("change=\(kind.rawValue)", "Primary: \(kind.title)", primary[kind])
        }
        if let table = since.table {
          option("change=table:\(kind.rawValue)", "Your table: \(kind.title)", table[kind])
        }
      }
      html += "</optgroup>"
    }
    html += "<optgroup label=\"Category\">"
    for category in DisplayOrder.categories where statistics.count(category) > 0 {
      option(
        "category=\(category.rawValue)", "\(category.title) (\(category.rawValue))",
        statistics.count(category))
    }
    html += "</optgroup>"
    let tabled = DisplayOrder.categories.filter { statistics.tableCount($0) > 0 }
    if !tabled.isEmpty {
      html += "<optgroup label=\"Your table\">"
      for category in tabled {
        option(
          "table=\(category.rawValue)", "Table: \(category.title) (\(category.rawValue))",
          statistics.tableCount(category))
      }
      html += "</optgroup>"
    }
    return html
  }
}
