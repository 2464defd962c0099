import Chronology
import Entitlements

/// The rows of report.html's account table, rendered one account at a time as the accounts
/// stream past: one `<tbody>` per account (so a filter hides an account whole), holding its row
/// and, when asked, a second row with the evidence in a `<details>`.
///
/// Each `<tbody>` carries what the page's filters read: `data-cat` (the category),
/// `data-impact`, `data-action` (its line of "what to do first", absent for a match),
/// `data-table` (the team table's category), `data-taction` (`table_wrong` when the table is
/// wrong today), `data-change` and `data-tchange` (how the primary
/// and the table category moved since the previous run, when they did) and `data-text` (what the
/// search looks through).
struct HTMLAccountRows {
  /// The comparison instant, named in the evidence.
  let asOf: Timestamp
  /// The most accounts listed.
  let rowLimit: Int
  /// The most listed accounts that do not match given their evidence.
  let evidenceLimit: Int
  /// How each changed account moved since the previous run, by the id the report shows.
  private let changes: [AccountKey: AccountChange]
  /// Accounts listed so far.
  private(set) var listed = 0
  /// Listed accounts that were given their evidence so far.
  private(set) var withEvidence = 0

  /// Rows for a report's options.
  ///
  /// - Parameters:
  ///   - asOf: the comparison instant.
  ///   - options: the row and evidence limits.
  ///   - changes: the accounts whose category changed since the previous run, with the ids the
  ///     report shows (pseudonyms under redaction).
  init(asOf: Timestamp, options: ReportOptions, changes: [AccountChange] = []) {
    self.asOf = asOf
    rowLimit = max(0, options.htmlRowLimit)
    evidenceLimit = max(0, options.htmlEvidenceLimit)
    var byAccount: [AccountKey: AccountChange] = [:]
    for change in changes { byAccount[AccountKey(change.accountId)] = change }
    self.changes = byAccount
  }

  /// Writes the next account's row, in display order, while rows remain: with its evidence
  /// when it does not match and evidence remains.
  mutating func add(_ account: AccountComparison, to output: inout ReportOutput) {
    guard listed < rowLimit else { return }
    listed += 1
    let showsEvidence = account.category != .match && withEvidence < evidenceLimit
    if showsEvidence { withEvidence += 1 }
    var html = ""
    appendRow(account, evidence: showsEvidence, to: &html)
    output.write(html)
  }

  func e(_ text: String) -> String { HTMLText.escape(text) }

  func appendRow(_ account: AccountComparison, evidence: Bool, to html: inout String) {
    let impact = account.category.impact
    html += evidence ? "<tbody class=\"e\" data-cat=\"" : "<tbody data-cat=\""
    html += account.category.rawValue
    html += "\" data-impact=\""
    html += impact.rawValue
    html += "\""
    if let bucket = ActionBucket.primary(account) {
      html += " data-action=\"\(ActionList.identifier(bucket))\""
    }
    if let table = account.tableCategory {
      html += " data-table=\"\(table.rawValue)\""
      if ActionTally.isWrong(table) {
        html += " data-taction=\"\(ActionList.identifier(.tableWrong))\""
      }
    }
    if let change = changes[AccountKey(account.accountId)] {
      if let primary = change.primary { html += " data-change=\"\(primary.kind.rawValue)\"" }
      if let table = change.table { html += " data-tchange=\"\(table.kind.rawValue)\"" }
    }
    html += " data-text=\""
    html += e(Self.searchText(account))
    html += "\"><tr><td class=\"id\">"
    html += HTMLAccountLink.to(account.accountId)
    html += "</td><td>"
    html += pill(account.category)
    html += "</td><td>"
    html += ReportFormatting.impact(impact)
    html += "</td><td>"
    html += account.cause?.rawValue ?? ""
    html += "</td><td>"
    html += e(account.explanation)
    if account.category != .match || (account.tableCategory ?? .match) != .match {
      html += "<br><em>Next: \(e(NextAction.of(account)))</em>"
    }
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

  /// What the search box looks through, lowercased: the account id, its categories (ids and
  /// names), the products, the original, transaction and app transaction (customer) ids it
  /// rests on, and the explanation.
  static func searchText(_ account: AccountComparison) -> String {
    var words: Set<String> = [account.category.rawValue, account.category.title]
    if let table = account.tableCategory { words.formUnion([table.rawValue, table.title]) }
    for key in account.keys {
      words.insert(key.category.rawValue)
      for view in [key.old, key.new, key.oldAtCapture, key.newAtCapture, key.table] {
        guard let view else { continue }
        for value in [view.productId, view.originalTransactionId, view.transactionId] {
          if let value { words.insert(value) }
        }
      }
    }
    for seed in account.evidence.seedIds { words.insert(seed.id) }
    for customer in account.evidence.customers { words.insert(customer.key) }
    // The id first and the explanation last, as before; the rest sorted, so the bytes are the
    // same on every run.
    return ([account.accountId] + words.sorted() + [account.explanation]).joined(separator: " ")
      .lowercased()
  }

  private func pill(_ category: DiscrepancyCategory) -> String {
    "<span class=\"pill tone-\(ReportFormatting.tone(category.impact))\" title=\"\(category.rawValue)\">"
      + "\(e(category.title))</span>"
  }

  // MARK: - Evidence

  private func appendEvidence(_ account: AccountComparison, to html: inout String) {
    let evidence = account.evidence
    html +=
      "<p>Compared as of \(asOf.iso8601); the legacy response was captured "
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
        + "<td class=\"mono\">\(customer.otherAccounts.map(HTMLAccountLink.to).joined(separator: ", "))"
        + "</td></tr>"
    }
    html += "</tbody></table>"
  }
}
