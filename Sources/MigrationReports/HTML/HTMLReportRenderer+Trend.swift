import Entitlements

// MARK: - An audit's trend: this run among the ones before it

extension HTMLReportRenderer {
  /// "The last runs": accounts by impact, new and resolved findings over the store's complete
  /// runs before this one and this run, as a chart and as a table whose run ids link to their
  /// reports while those still exist. Only an audit's report has it, and only once there is a
  /// run before.
  func trend() -> String {
    var points = content.context.trend
    guard summary.isAudit, points.count >= 2 else { return "" }
    // This run's numbers as this report states them (the ledger may not hold its summary yet).
    if var this = points.last?.entry, this.runId == summary.runId {
      this.impactCounts = Dictionary(
        uniqueKeysWithValues: TrendChart.impacts.map { ($0.impact, statistics.count($0.impact)) })
      this.since = summary.since
      this.exitCode = summary.exitCode
      points[points.count - 1].entry = this
    }
    let runs = points.enumerated().map { index, point in
      chartRun(point.entry, isThisRun: index == points.count - 1)
    }
    var html = "<section id=\"trend\" tabindex=\"-1\">\n<h2>The last runs</h2>\n"
    html +=
      "<p class=\"note\">This run and the \(points.count - 1) complete run(s) of this store "
      + "before it, oldest first: accounts by impact of their primary category, then the "
      + "findings new and resolved since each run's previous one (primary and team table "
      + "together). A run compared with different inputs counts no new or resolved findings "
      + "from the inputs that changed.</p>\n"
    html +=
      TrendChart(runs: runs).svg(
        id: "trend-chart",
        title:
          "Accounts by impact, and new and resolved findings, over the last \(points.count) runs")
      + "\n"
    html += "<div class=\"scroll\"><table id=\"trend-table\">"
    html +=
      "<caption>The last \(points.count) runs, oldest first; each run id links to its report "
      + "while its folder exists.</caption>"
    html += "<thead><tr><th scope=\"col\">Run</th><th scope=\"col\">As of</th>"
    for (title, _) in Self.trendImpactColumns {
      html += "<th scope=\"col\" class=\"num\">\(title)</th>"
    }
    html += "<th scope=\"col\" class=\"num\">New</th><th scope=\"col\" class=\"num\">Resolved</th>"
    html += "<th scope=\"col\" class=\"num\">Exit</th></tr></thead><tbody>\n"
    for (index, point) in points.enumerated() {
      let entry = point.entry
      let isThisRun = index == points.count - 1
      let name = "<code>\(e(entry.runId))</code>"
      let run: String
      if isThisRun {
        run = "\(name) (this run)"
      } else if let link = point.reportLink {
        run = "<a href=\"\(e(link))\">\(name)</a>"
      } else {
        run = name
      }
      html +=
        "<tr><th scope=\"row\">\(run)</th><td><time datetime=\"\(entry.asOf.iso8601)\">"
        + "\(String(entry.asOf.iso8601.prefix(10)))</time></td>"
      for (_, impact) in Self.trendImpactColumns {
        html += "<td class=\"num\">\(ReportFormatting.count(entry.impactCounts[impact] ?? 0))</td>"
      }
      let new = entry.since == nil ? "–" : ReportFormatting.count(entry.newFindings)
      let resolved = entry.since == nil ? "–" : ReportFormatting.count(entry.resolvedFindings)
      html +=
        "<td class=\"num\">\(new)</td><td class=\"num\">\(resolved)</td>"
        + "<td class=\"num\">\(entry.exitCode.map(String.init) ?? "–")</td></tr>\n"
    }
    html += "</tbody></table></div>\n"
    return html + "</section>\n"
  }

  /// The table's impact columns, in the chart's stacking order.
  private static let trendImpactColumns: [(String, DiscrepancyCategory.Impact)] = [
    ("Lose", .losesAccess), ("Gain", .gainsAccess), ("Terms", .changesTerms),
    ("Attention", .needsAttention),
  ]

  private func chartRun(_ entry: RunHistoryEntry, isThisRun: Bool) -> TrendChart.Run {
    let impacts = TrendChart.impacts.map { entry.impactCounts[$0.impact] ?? 0 }
    let counts = zip(Self.trendImpactColumns, impacts).map { column, count in
      "\(ReportFormatting.count(count)) \(column.0.lowercased())"
    }
    let changes =
      entry.since == nil
      ? "not compared with an earlier run"
      : "\(ReportFormatting.count(entry.newFindings)) new, "
        + "\(ReportFormatting.count(entry.resolvedFindings)) resolved"
    return TrendChart.Run(
      label: String(entry.asOf.iso8601.dropFirst(5).prefix(5)), impacts: impacts,
      newFindings: entry.newFindings, resolved: entry.resolvedFindings,
      title:
        "\(isThisRun ? "This run" : "Run") \(entry.runId), as of "
        + "\(entry.asOf.iso8601.prefix(10)): \(counts.joined(separator: ", ")); \(changes)")
  }
}
