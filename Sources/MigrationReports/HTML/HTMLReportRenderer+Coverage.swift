// MARK: - Customers the run could not compare as accounts

extension HTMLReportRenderer {
  /// Accounts only in the team's table, and App Store customers no account claims.
  func coverage() -> String {
    let context = content.context
    let lines = CoverageText.lines(content.summary)
    guard !lines.isEmpty else { return "" }
    var html = "<section id=\"coverage\">\n<h2>Customers outside the comparison</h2>\n"
    for line in lines { html += "<p class=\"note\">\(e(line)).</p>\n" }
    if !context.tableOnlyAccounts.isEmpty {
      html += "<h3>Accounts only in your table</h3>\n<p>"
      html += context.tableOnlyAccounts.prefix(Self.auditRowLimit).map { "<code>\(e($0))</code>" }
        .joined(separator: " ")
      html += "</p>\n" + leftOut(context.tableOnlyAccounts.count, "accounts")
    }
    if !context.unclaimedCustomers.isEmpty {
      html += "<div class=\"scroll\"><table id=\"unclaimed\"><thead><tr><th>Environment</th>"
      html += "<th>Customer</th><th>Original transaction</th><th>appAccountToken</th>"
      html += "<th class=\"num\">Notifications</th><th>Latest</th></tr></thead><tbody>\n"
      for customer in context.unclaimedCustomers.prefix(Self.auditRowLimit) {
        html +=
          "<tr><td>\(e(customer.environment))</td><td><code>\(e(customer.customerKey))</code></td>"
          + "<td><code>\(e(customer.originalTransactionId ?? ""))</code></td>"
          + "<td><code>\(e(customer.appAccountToken ?? ""))</code></td>"
          + "<td class=\"num\">\(ReportFormatting.count(customer.notifications))</td>"
          + "<td>\(e(customer.lastType ?? "")) \(e(customer.lastSigned?.iso8601 ?? ""))</td></tr>\n"
      }
      html += "</tbody></table></div>\n"
      html += leftOut(context.unclaimedCustomers.count, "unclaimed customers")
    }
    return html + "</section>\n"
  }
}
