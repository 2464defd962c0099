// MARK: - Failed deliveries Apple may still retry

extension HTMLReportRenderer {
  /// The failed deliveries Apple may still retry, apart from the lost ones: not to be replayed
  /// yet, since a later attempt may still reach the team's server.
  func pendingNotifications() -> String {
    let pending = content.context.pendingNotifications
    guard !pending.isEmpty else { return "" }
    var html = "<section id=\"pending-notifications\">\n<h2>Pending notifications</h2>\n"
    html +=
      "<p class=\"note\">\(ReportFormatting.count(pending.count)) failed deliveries Apple may "
      + "still retry (in production up to five more times, 1, 12, 24, 48 and 72 hours after "
      + "the previous attempt). They are not lost yet: replaying them now could process them "
      + "twice. Each is listed as lost, or no more, once its last attempt is known.</p>\n"
    html += "<div class=\"scroll\"><table id=\"pending\"><thead><tr><th>Signed</th><th>Type</th>"
    html += "<th>Customer</th><th>Accounts</th><th class=\"num\">Failed attempts</th>"
    html += "<th>Last attempt</th><th>Reason</th></tr></thead><tbody>\n"
    for notification in pending.prefix(Self.auditRowLimit) {
      html +=
        "<tr><td>\(e(notification.signedDate?.iso8601 ?? ""))</td>"
        + "<td><code>\(e(notification.kind))</code></td>"
        + "<td><code>\(e(notification.customerKey ?? ""))</code></td>"
        + "<td>\(e(notification.accounts.joined(separator: " ")))</td>"
        + "<td class=\"num\">\(ReportFormatting.count(notification.failedAttempts))</td>"
        + "<td>\(e(notification.lastAttempt?.iso8601 ?? ""))</td>"
        + "<td>\(e(notification.reason ?? ""))</td></tr>\n"
    }
    return html + "</tbody></table></div>\n" + leftOut(pending.count, "pending notifications")
      + "</section>\n"
  }
}
