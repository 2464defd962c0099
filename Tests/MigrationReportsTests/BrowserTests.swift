import Entitlements
import Foundation
import TestDirectories
import Testing

@testable import MigrationReports

extension ReportInChromium {
  /// `report.html` opened in a real headless Chromium: the charts are laid out, the table has
  /// one row per account, the filter script ran without errors, and hostile account ids stayed
  /// text.
  ///
  /// Independent judge: the browser's own layout, computed styles, focus and history decide
  /// every verdict; the expected counts come from the sample world's comparisons.
  @Suite("rendering, filters and sorting")
  struct BrowserTests {
    /// Writes a scenario's report into a new temporary directory, calls `body` with the
    /// directory, and removes it afterwards.
    static func withReport<Result>(
      _ scenario: Scenario = .simulated, _ body: (String) async throws -> Result
    ) async throws -> Result {
      let directory = try TemporaryDirectory.make()
      defer { TemporaryDirectory.remove(directory) }
      try ReportWriter.write(
        summary: scenario.summary, comparisons: scenario.comparisons, context: scenario.context,
        to: directory)
      return try await body(directory)
    }

    /// The opening tags of the account rows, `hidden=""` included when the filter hid one.
    static func accountRows(_ dom: String) -> [Substring] {
      dom.components(separatedBy: "<tbody").dropFirst().compactMap { piece -> Substring? in
        guard let end = piece.firstIndex(of: ">") else { return nil }
        let tag = piece[..<end]
        return tag.contains("data-cat=") ? tag : nil
      }
    }

    static func attribute(_ name: String, ofBodyIn dom: String) -> String? {
      guard let start = dom.range(of: "<body"),
        let end = dom[start.upperBound...].firstIndex(of: ">")
      else { return nil }
      let tag = dom[start.upperBound..<end]
      guard let attribute = tag.range(of: " \(name)=\"") else { return nil }
      return String(tag[attribute.upperBound...].prefix { $0 != "\"" })
    }

    @Test("the charts are drawn, every account has a row, and the script ran cleanly")
    func rendersFully() async throws {
      let dom = try await Self.withReport {
        try await Chromium.dumpDOM(of: URL(fileURLWithPath: $0 + "/report.html"))
      }
      #expect(Self.attribute("data-ready", ofBodyIn: dom) == "true")
      #expect(Self.attribute("data-error", ofBodyIn: dom) == nil)
      #expect(
        Self.attribute("data-pwned", ofBodyIn: dom) == nil, "a hostile account id ran as code")

      let hasCharts =
        dom.contains("<svg id=\"category-chart\"") && dom.contains("<svg id=\"expiry-chart\"")
        && dom.contains("<table class=\"matrix\" id=\"transition-matrix\">")
      #expect(hasCharts, "the category chart, the histogram or the matrix is missing from the DOM")
      #expect(
        Self.attribute("data-drawn-bars", ofBodyIn: dom) == String(Self.expectedBars(.simulated)),
        "every non-empty bar of the charts shown has a laid-out size")

      // Matching accounts are collapsed by default: the first view lists what differs.
      let rows = Self.accountRows(dom)
      let matches = SampleWorld.comparisons.filter { $0.category == .match }.count
      #expect(rows.count == SampleWorld.comparisons.count)
      #expect(rows.filter { $0.contains("hidden") }.count == matches)
      let showsFilters = dom.contains("<div class=\"filters\" id=\"filters\">")
      #expect(showsFilters, "the script did not show the filters")
      let counted = dom.contains("Showing \(28 - matches) of 28 accounts")
      #expect(counted, "the script did not count the rows")
      // The browser serialises text with only &, < and > escaped: the id is there as text.
      let hostileAsText = dom.contains(
        SampleWorld.scriptId.replacing("<", with: "&lt;").replacing(">", with: "&gt;"))
      #expect(hostileAsText, "the <script> account id is not shown as text")
    }

    /// The bars with a value in the charts a wide window shows (the wide layouts).
    static func expectedBars(_ scenario: Scenario) -> Int {
      let statistics = ReportStatistics(comparisons: scenario.comparisons, topExplanationCount: 0)
      let categoryBars = DiscrepancyCategory.allCases.filter {
        $0 != .match && statistics.count($0) > 0
      }.count
      let tableBars = DiscrepancyCategory.allCases.filter { statistics.tableCount($0) > 0 }.count
      let histogramBars = ExpiryDifferenceHistogram.Bucket.allCases.filter {
        statistics.expiryDifferences.count($0) > 0
      }.count
      let since = scenario.summary.since.map { since in
        ChangeKind.allCases.filter { (since.primary?[$0] ?? 0) > 0 }.count
          + ChangeKind.allCases.filter { (since.table?[$0] ?? 0) > 0 }.count
      }
      // The trend: a bar per non-empty impact of each run, and one for new and one for
      // resolved findings when there are any; this run's numbers are the report's own.
      var trendBars = 0
      if scenario.summary.isAudit, scenario.context.trend.count >= 2 {
        for point in scenario.context.trend.dropLast() {
          trendBars += point.entry.impactCounts.values.filter { $0 > 0 }.count
          trendBars +=
            (point.entry.newFindings > 0 ? 1 : 0) + (point.entry.resolvedFindings > 0 ? 1 : 0)
        }
        let impacts: [DiscrepancyCategory.Impact] = [
          .losesAccess, .gainsAccess, .changesTerms, .needsAttention,
        ]
        trendBars += impacts.filter { statistics.count($0) > 0 }.count
        let this = scenario.context.trend[scenario.context.trend.count - 1].entry
        var counted = this
        counted.since = scenario.summary.since
        trendBars += (counted.newFindings > 0 ? 1 : 0) + (counted.resolvedFindings > 0 ? 1 : 0)
      }
      return categoryBars + tableBars + histogramBars + (since ?? 0) + trendBars
    }

    /// Addresses, and how many accounts each shows.
    static let fragments = [
      ("category=stale_expired", 2),
      ("category=match", 4),
      ("category=*&account=ACCT-10", 20),
      ("account=%E6%9D%B1%E4%BA%AC", 1),
      ("account=%3Cscript", 1),
      ("category=no_such_category", 24),
      ("category=", 28),
      ("impact=loses_access", 7),
      ("account=com.example.lifetime", 2),
      ("q=refunded", 3),
      ("action=logic_loses_access", 3),
      ("action=table_wrong", 3),
      ("table=grace_missed", 1),
    ]

    @Test("the filters and the search in the address hide exactly the other rows")
    func filters() async throws {
      // One browser: each address is a fresh load of the page.
      let measured = try await Self.withReport { directory in
        try await BrowserHarness.run(
          reportIn: directory, width: 1280, steps: Self.fragments.map { .open($0.0) })
      }
      for ((fragment, visible), page) in zip(Self.fragments, measured) {
        #expect(page["error"] == nil || page["error"] is NSNull, "\(fragment)")
        #expect(page["rows"] as? Int == SampleWorld.comparisons.count, "\(fragment)")
        #expect(page["visible"] as? Int == visible, "\(fragment): \(page["visible"] ?? "")")
        #expect(
          (page["status"] as? String ?? "").hasPrefix("Showing \(visible) of 28 accounts"),
          "\(fragment): \(page["status"] ?? "")")
      }
    }

    @Test("a sort in the fragment orders the rows and marks the column")
    func sorting() async throws {
      let dom = try await Self.withReport { directory in
        let page = URL(fileURLWithPath: directory + "/report.html")
        let url = try #require(URL(string: page.absoluteString + "#category=&sort=account-desc"))
        return try await Chromium.dumpDOM(of: url)
      }
      #expect(Self.attribute("data-error", ofBodyIn: dom) == nil)
      #expect(Self.attribute("data-sorted", ofBodyIn: dom) == "account desc")
      let ids = dom.components(separatedBy: "<td class=\"id\"><a class=\"acct\"").dropFirst().map {
        piece -> String in
        let text = piece.drop { $0 != ">" }.dropFirst()
        return String(text.prefix { $0 != "<" })
      }
      #expect(ids.count == SampleWorld.comparisons.count)
      #expect(ids == ids.sorted { $0.localizedStandardCompare($1) == .orderedDescending })
    }
  }
}
