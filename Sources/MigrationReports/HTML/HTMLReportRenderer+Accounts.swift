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
    html += "<section id=\"discrepancies\">\n<h2>Accounts</h2>\n"
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
    html += "<label for=\"filter-category\">Category</label>\n<select id=\"filter-category\">"
    html +=
      "<option value=\"\">All categories (\(ReportFormatting.count(statistics.accounts)))</option>"
    html +=
      "<option value=\"*\">All but matches (\(ReportFormatting.count(discrepancies)))</option>"
    for category in DisplayOrder.categories where statistics.count(category) > 0 {
      html +=
        "<option value=\"\(category.rawValue)\">\(e(category.title)) "
        + "(\(ReportFormatting.count(statistics.count(category))))</option>"
    }
    html += "</select>\n<label for=\"filter-account\">Search</label>\n"
    html +=
      "<input id=\"filter-account\" type=\"search\" placeholder=\"account id, product or words\" autocomplete=\"off\">\n"
    html += "<span id=\"filter-count\" aria-live=\"polite\"></span>\n</div>\n"
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
}
