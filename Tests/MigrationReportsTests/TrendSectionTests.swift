import Entitlements
import Foundation
import MigrationReports
import Testing

/// The trend section of an audit's `report.html`: this run among the runs before it.
@Suite("report.html: the trend of an audit")
struct TrendSectionTests {
  /// Five runs: four before the audit (two of them with a report folder still there), then the
  /// audit itself.
  static var fiveRuns: [RunTrendPoint] {
    let earlier = (1...4).map { night in
      SampleWorld.trendPoint(
        "2024061\(night)T030000Z-000\(night)", asOf: "2024-06-1\(night)T03:00:00Z",
        command: night == 1 ? "migrate" : "audit",
        impacts: [.losesAccess: 10 - night, .gainsAccess: night, .needsAttention: 2],
        since: night == 1 ? nil : (new: night, resolved: night - 1), exitCode: 0,
        link: night.isMultiple(of: 2) ? "../2024061\(night)T030000Z-000\(night)/report.html" : nil)
    }
    return earlier
      + [
        SampleWorld.trendPoint(
          SampleWorld.auditSummary.runId, asOf: "2024-06-16T03:00:00Z", command: "audit",
          impacts: [:], since: nil, exitCode: nil, link: nil)
      ]
  }

  static func html(trend: [RunTrendPoint], summary: RunSummary = SampleWorld.auditSummary)
    throws -> String
  {
    var context = SampleWorld.auditContext
    context.trend = trend
    let files = ReportWriter.render(
      summary: summary, comparisons: SampleWorld.comparisons, context: context)
    let file = try #require(files.first { $0.name == "report.html" })
    return String(decoding: file.bytes, as: UTF8.self)
  }

  /// The part of the page from `start` up to the next `</section>`.
  static func section(_ id: String, in html: String) throws -> String {
    let start = try #require(html.range(of: "<section id=\"\(id)\""))
    let end = try #require(html.range(of: "</section>", range: start.upperBound..<html.endIndex))
    return String(html[start.lowerBound..<end.upperBound])
  }

  @Test("five runs: a column and a row each, oldest first, after \"since the last run\"")
  func fiveRuns() throws {
    let html = try Self.html(trend: Self.fiveRuns)
    let trend = try Self.section("trend", in: html)
    let since = try #require(html.range(of: "<section id=\"since\""))
    let trendStart = try #require(html.range(of: "<section id=\"trend\""))
    #expect(since.lowerBound < trendStart.lowerBound)
    #expect(trend.components(separatedBy: "<g class=\"column\">").count - 1 == 5)
    #expect(trend.components(separatedBy: "<tr><th scope=\"row\">").count - 1 == 5)
    // Oldest first, this run last and named so.
    let ids = Self.fiveRuns.map(\.entry.runId)
    let positions = try ids.map { try #require(trend.range(of: $0)).lowerBound }
    #expect(positions == positions.sorted())
    #expect(trend.contains("<code>\(SampleWorld.auditSummary.runId)</code> (this run)"))
    // Linked while the report folder exists, plain text otherwise.
    #expect(
      trend.contains(
        "<a href=\"../20240612T030000Z-0002/report.html\"><code>20240612T030000Z-0002</code></a>"))
    #expect(trend.contains("<th scope=\"row\"><code>20240611T030000Z-0001</code></th>"))
    // A run compared with nothing has no new or resolved count; the others have theirs.
    #expect(trend.contains("Run 20240611T030000Z-0001, as of 2024-06-11: 9 lose"))
    #expect(trend.contains("not compared with an earlier run"))
    #expect(trend.contains("4 new, 3 resolved"))
    // This run's numbers are the report's own: two new and one resolved on the primary side,
    // one and one on the table's.
    #expect(trend.contains("3 new, 2 resolved"))
    // Self-contained: an inline chart with an accessible title, no script or external source.
    #expect(trend.contains("role=\"img\" aria-labelledby=\"trend-chart-title\""))
    #expect(!trend.contains("<script"))
    #expect(!trend.contains("src="))
  }

  @Test("no trend without an earlier run, nor on a migration's report")
  func absent() throws {
    #expect(!(try Self.html(trend: Array(Self.fiveRuns.suffix(1)))).contains("id=\"trend\""))
    var migration = SampleWorld.auditSummary
    migration.command = "migrate"
    #expect(!(try Self.html(trend: Self.fiveRuns, summary: migration)).contains("id=\"trend\""))
  }
}
