// MARK: - The run's facts

extension HTMLReportRenderer {
  /// The run's facts: when, against what, what was read, how long each stage took, and what
  /// the requests did.
  func runDetails() -> String {
    let summary = content.summary
    let inputs = summary.inputs
    var html = "<section id=\"run\">\n<h2>The run</h2>\n<dl class=\"facts\">\n"
    func fact(_ name: String, _ value: String) {
      html += "<dt>\(name)</dt><dd>\(value)</dd>\n"
    }
    fact("Run", "<code>\(e(summary.runId))</code>")
    fact("receipt-migrate", e(summary.toolVersion))
    fact(
      "Started · finished",
      "\(summary.startedAt.iso8601) · \(summary.finishedAt.iso8601) "
        + "(\(ReportFormatting.duration(milliseconds: summary.durationMilliseconds)))")
    fact("Compared as of", summary.asOf.iso8601)
    fact(
      "App Store",
      "\(e(summary.appStore.description)); environment \(e(summary.appStore.environment))"
        + (summary.appStore.isSimulated ? "; <strong>simulated</strong>" : ""))
    fact("Legacy records", ReportFormatting.records(inputs))
    fact(
      "Accounts",
      "\(ReportFormatting.count(inputs.accounts)) in the store, "
        + "\(ReportFormatting.count(content.statistics.accounts)) compared")
    fact("Team table", summary.teamTableFile.map { "<code>\(e($0))</code>" } ?? "not compared")
    fact(
      "Fail-on threshold",
      summary.failOn.map {
        "<code>\(e($0.expression))</code>: \($0.isCrossed ? "crossed" : "not crossed")"
      }
        ?? "none set")
    fact("Account ids", content.options.isRedacted ? "pseudonymised" : "as stored")
    html += "</dl>\n"

    if !summary.stageDurations.isEmpty {
      html += "<h3>Stages</h3>\n<table id=\"stages\"><thead><tr><th>Stage</th>"
      html += "<th class=\"num\">Duration</th></tr></thead><tbody>\n"
      for stage in summary.stageDurations {
        html +=
          "<tr><td>\(e(stage.stage))</td>"
          + "<td class=\"num\">\(ReportFormatting.duration(milliseconds: stage.milliseconds))</td></tr>\n"
      }
      html += "</tbody></table>\n"
    }

    html += "<h3>App Store Server API requests</h3>\n"
    guard !summary.requests.isEmpty else {
      return html + "<p>No requests were sent.</p>\n</section>\n"
    }
    html += "<div class=\"scroll\"><table id=\"requests\"><thead><tr><th>Endpoint</th>"
    for title in [
      "Requests", "Successes", "Retries", "429s", "Failures", "Transport errors",
      "Verification failures",
    ] {
      html += "<th class=\"num\">\(title)</th>"
    }
    html += "<th>Errors by code</th></tr></thead><tbody>\n"
    for endpoint in summary.requests {
      html += "<tr><td><code>\(e(endpoint.endpoint))</code></td>"
      html += numbers(RequestTotals(endpoint))
      html += "<td>\(errorCodes(endpoint))</td></tr>\n"
    }
    html += "</tbody><tfoot><tr><th>Total</th>"
    html += numbers(RequestTotals(summary.requests))
    html += "<td></td></tr></tfoot></table></div>\n"
    if let rate = RateShareText.sentence(summary) {
      html += "<p class=\"note\">Requests were \(e(rate)).</p>\n"
    }
    return html + "</section>\n"
  }

  private func numbers(_ totals: RequestTotals) -> String {
    [
      totals.requests, totals.successes, totals.retries, totals.rateLimited, totals.failures,
      totals.transportErrors, totals.verificationFailures,
    ]
    .map { "<td class=\"num\">\(ReportFormatting.count($0))</td>" }.joined()
  }

  private func errorCodes(_ endpoint: EndpointStatistics) -> String {
    let codes = endpoint.errorsByCode.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }
    let statuses = endpoint.errorsByStatus.sorted { $0.key < $1.key }.map {
      "HTTP \($0.key) × \($0.value)"
    }
    return (codes + statuses).joined(separator: ", ")
  }
}
