import Chronology
import Entitlements

// MARK: - The accounts table

extension HTMLReportRenderer {
  /// The table of accounts: one `<tbody>` per account (so a filter hides an account whole),
  /// holding its row and, for the first accounts that do not match, a second row with the
  /// evidence in a `<details>`.
  func appendAccounts(into output: inout ReportOutput) {
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
    var withEvidence = 0
    for account in content.accounts.prefix(listed) {
      let showsEvidence = account.category != .match && withEvidence < evidenceLimit
      if showsEvidence { withEvidence += 1 }
      appendRow(account, evidence: showsEvidence, to: &html)
      output.write(html)
      html.removeAll(keepingCapacity: true)
    }
    html += "</table></div>\n</section>\n"
    output.write(html)
  }

  private func appendRow(_ account: AccountComparison, evidence: Bool, to html: inout String) {
    let impact = account.category.impact
    html += evidence ? "<tbody class=\"e\" data-cat=\"" : "<tbody data-cat=\""
    html += account.category.rawValue
    html += "\" data-impact=\""
    html += impact.rawValue
    // What the search box looks through: the id, the products of its keys, the explanation.
    let products = Set(account.keys.compactMap(\.productId))
    html += "\" data-text=\""
    html += e(
      (([account.accountId] + products.sorted()) + [account.explanation])
        .joined(separator: " ").lowercased())
    html += "\"><tr><td class=\"id\">"
    html += e(account.accountId)
    html += "</td><td>"
    html += pill(account.category)
    html += "</td><td>"
    html += ReportFormatting.impact(impact)
    html += "</td><td>"
    html += account.cause?.rawValue ?? ""
    html += "</td><td>"
    html += e(account.explanation)
    html += "</td><td>"
    if let table = account.tableCategory { html += pill(table) }
    html += "</td></tr>"
    if evidence {
      html += "\n<tr class=\"ev\"><td colspan=\"6\"><details><summary>Evidence</summary>"
      html += "<div class=\"evidence\">"
      appendEvidence(account, to: &html)
      html += "</div></details></td></tr>"
    }
    html += "</tbody>\n"
  }

  private func pill(_ category: DiscrepancyCategory) -> String {
    "<span class=\"pill tone-\(ReportFormatting.tone(category.impact))\" title=\"\(category.rawValue)\">"
      + "\(e(category.title))</span>"
  }

  // MARK: - Evidence

  private func appendEvidence(_ account: AccountComparison, to html: inout String) {
    let evidence = account.evidence
    html +=
      "<p>Compared as of \(content.summary.asOf.iso8601); the legacy response was captured "
      + "\(evidence.capturedAt.map { "at \($0.iso8601)" } ?? "at an unknown instant").</p>"
    for key in account.keys {
      appendKey(key, to: &html)
    }
    if account.keys.isEmpty {
      html += "<h4>Keys</h4><p>Neither side has an entitlement key for this account.</p>"
    }
    if !account.suspectedFlaws.isEmpty {
      html += "<h4>Suspected legacy bugs</h4><ul>"
      for flaw in account.suspectedFlaws {
        html += "<li><code>\(flaw.rawValue)</code>: \(e(flaw.explanation))</li>"
      }
      html += "</ul>"
    }
    if !account.secondaryFindings.isEmpty {
      html += "<h4>Other findings</h4><ul>"
      for finding in account.secondaryFindings {
        html += "<li>\(e(finding))</li>"
      }
      html += "</ul>"
    }
    appendRecords(evidence.legacyRecords, to: &html)
    appendSeedIds(evidence.seedIds, to: &html)
    appendCustomers(evidence.customers, to: &html)
  }

  private func appendKey(_ key: KeyComparison, to html: inout String) {
    html += "<h4><code>\(e(key.key.description))</code> \(pill(key.category))"
    if let cause = key.cause { html += " cause: \(cause.rawValue)" }
    if let table = key.tableCategory { html += " · table: \(pill(table))" }
    html += "</h4><p>\(e(key.explanation))</p>"
    html += "<table class=\"views\"><thead><tr><th>View</th><th>Status</th><th>Product</th>"
    html += "<th>Expires</th><th>Details</th><th>Reason</th></tr></thead><tbody>"
    for side in ViewText.Side.allCases {
      let view = side.view(in: key)
      guard view != nil || side.isAlwaysShown else { continue }
      html += "<tr><td class=\"side\">\(side.rawValue)</td><td>\(ViewText.status(view))</td>"
      if let view {
        html +=
          "<td>\(e(view.productId ?? ""))</td><td class=\"t\">\(view.expiresDate?.iso8601 ?? "")</td>"
          + "<td>\(e(ViewText.details(view)))</td><td>\(e(view.reason ?? ""))</td>"
      } else {
        html += "<td colspan=\"4\">knows nothing of this key</td>"
      }
      html += "</tr>"
    }
    html += "</tbody></table>"
  }

  private func appendRecords(_ records: [AccountEvidence.LegacyRecord], to html: inout String) {
    html += "<h4>Legacy records</h4>"
    guard !records.isEmpty else {
      html += "<p>None stored.</p>"
      return
    }
    html += "<table><thead><tr><th class=\"num\">Version</th><th>Kind</th><th>Source</th>"
    html += "<th class=\"num\">Status</th><th>Environment</th><th>Captured</th><th>Evaluated</th>"
    html += "</tr></thead><tbody>"
    for record in records {
      html +=
        "<tr><td class=\"num\">\(record.version)</td><td>\(e(record.kind))</td>"
        + "<td class=\"mono\">\(e(record.source))</td>"
        + "<td class=\"num\">\(record.status.map(String.init) ?? "")</td>"
        + "<td>\(e(record.environment ?? ""))</td><td class=\"t\">\(record.capturedAt?.iso8601 ?? "")</td>"
        + "<td>\(record.isEvaluated ? "evaluated" : "")</td></tr>"
    }
    html += "</tbody></table>"
  }

  private func appendSeedIds(_ seeds: [AccountEvidence.SeedId], to html: inout String) {
    html += "<h4>Original transaction ids</h4>"
    guard !seeds.isEmpty else {
      html += "<p>None: nothing to look up at the App Store.</p>"
      return
    }
    html += "<table><thead><tr><th>Id</th><th>Found in</th><th>Outcome</th><th>Environment</th>"
    html += "<th>Last error</th></tr></thead><tbody>"
    for seed in seeds {
      let tag =
        seed.isUnverified
        ? "<span class=\"tag\" title=\"from a raw receipt whose signature was not verified\">"
          + "unverified receipt</span>" : ""
      html +=
        "<tr><td class=\"mono\">\(e(seed.id))\(tag)</td><td>\(e(seed.source))</td>"
        + "<td>\(seed.outcome.rawValue)</td><td>\(e(seed.environment ?? ""))</td>"
        + "<td>\(e(seed.lastError ?? ""))</td></tr>"
    }
    html += "</tbody></table>"
  }

  private func appendCustomers(_ customers: [AccountEvidence.Customer], to html: inout String) {
    html += "<h4>App Store customers</h4>"
    guard !customers.isEmpty else {
      html += "<p>None found.</p>"
      return
    }
    html += "<table><thead><tr><th>Customer</th><th>Environment</th><th>Also under accounts</th>"
    html += "</tr></thead><tbody>"
    for customer in customers {
      html +=
        "<tr><td class=\"mono\">\(e(customer.key))</td><td>\(e(customer.environment))</td>"
        + "<td class=\"mono\">\(e(customer.otherAccounts.joined(separator: ", ")))</td></tr>"
    }
    html += "</tbody></table>"
  }
}
