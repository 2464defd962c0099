import Entitlements
import Foundation
import TestDirectories
import Testing

@testable import MigrationReports

/// `report.html` opened in a real headless Chromium: the charts are laid out, the table has
/// one row per account, the filter script ran without errors, and hostile account ids stayed
/// text. Skipped, with a line that says so, when no Chromium is installed.
@Suite(
  "report.html in headless Chromium", .serialized,
  .enabled(
    if: Chromium.isAvailable,
    "no Chromium found (chromium, chromium-browser, google-chrome or $CHROMIUM): the browser check of report.html was skipped"
  ))
struct BrowserTests {
  /// Writes the sample report into a new temporary directory, calls `body` with its
  /// report.html, and removes the directory afterwards.
  private static func withReport<Result>(_ body: (URL) throws -> Result) throws -> Result {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    try ReportWriter.write(
      summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons, to: directory)
    return try body(URL(fileURLWithPath: directory + "/report.html"))
  }

  /// The opening tags of the account rows, `hidden=""` included when the filter hid one.
  private static func accountRows(_ dom: String) -> [Substring] {
    dom.components(separatedBy: "<tbody").dropFirst().compactMap { piece -> Substring? in
      guard let end = piece.firstIndex(of: ">") else { return nil }
      let tag = piece[..<end]
      return tag.contains("data-cat=") ? tag : nil
    }
  }

  private static func attribute(_ name: String, ofBodyIn dom: String) -> String? {
    guard let start = dom.range(of: "<body"), let end = dom[start.upperBound...].firstIndex(of: ">")
    else { return nil }
    let tag = dom[start.upperBound..<end]
    guard let attribute = tag.range(of: " \(name)=\"") else { return nil }
    return String(tag[attribute.upperBound...].prefix { $0 != "\"" })
  }

  @Test("the charts are drawn, every account has a row, and the script ran cleanly")
  func rendersFully() throws {
    let dom = try Self.withReport { try Chromium.dumpDOM(of: $0) }
    #expect(Self.attribute("data-ready", ofBodyIn: dom) == "true")
    #expect(Self.attribute("data-error", ofBodyIn: dom) == nil)
    #expect(Self.attribute("data-pwned", ofBodyIn: dom) == nil, "a hostile account id ran as code")

    let statistics = ReportStatistics(comparisons: SampleWorld.comparisons, topExplanationCount: 0)
    let categoryBars = DiscrepancyCategory.allCases.filter {
      $0 != .match && statistics.count($0) > 0
    }
    .count
    let tableBars = DiscrepancyCategory.allCases.filter { statistics.tableCount($0) > 0 }.count
    let histogramBars = ExpiryDifferenceHistogram.Bucket.allCases.filter {
      statistics.expiryDifferences.count($0) > 0
    }.count
    // Found first and checked after, so that a failure prints a sentence, not the whole DOM.
    let hasCharts =
      dom.contains("<svg id=\"category-chart\"") && dom.contains("<svg id=\"expiry-chart\"")
      && dom.contains("<table class=\"matrix\" id=\"transition-matrix\">")
    #expect(hasCharts, "the category chart, the histogram or the matrix is missing from the DOM")
    #expect(
      Self.attribute("data-drawn-bars", ofBodyIn: dom)
        == String(categoryBars + tableBars + histogramBars),
      "every non-empty bar of the three charts has a laid-out size")

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

  @Test(
    "the category filter and the account search hide exactly the other rows",
    arguments: [
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
    ])
  func filters(fragment: String, visible: Int) throws {
    let dom = try Self.withReport { page in
      let url = try #require(URL(string: page.absoluteString + "#" + fragment))
      return try Chromium.dumpDOM(of: url)
    }
    #expect(Self.attribute("data-error", ofBodyIn: dom) == nil)
    let rows = Self.accountRows(dom)
    #expect(rows.count == SampleWorld.comparisons.count)
    #expect(rows.filter { !$0.contains("hidden") }.count == visible)
    let counted = dom.contains("Showing \(visible) of 28 accounts")
    #expect(counted, "the script did not say it shows \(visible) of 28 accounts")
  }

  @Test("a sort in the fragment orders the rows and marks the column")
  func sorting() throws {
    let dom = try Self.withReport { page in
      let url = try #require(URL(string: page.absoluteString + "#category=&sort=account-desc"))
      return try Chromium.dumpDOM(of: url)
    }
    #expect(Self.attribute("data-error", ofBodyIn: dom) == nil)
    #expect(Self.attribute("data-sorted", ofBodyIn: dom) == "account desc")
    let ids = dom.components(separatedBy: "<td class=\"id\">").dropFirst().map {
      String($0.prefix { $0 != "<" })
    }
    #expect(ids.count == SampleWorld.comparisons.count)
    #expect(ids == ids.sorted { $0.localizedStandardCompare($1) == .orderedDescending })
  }

  @Test("at a phone's width (390 px) nothing makes the page wider than the window")
  func phoneWidth() throws {
    let dom = try Self.withReport { try Chromium.dumpDOM(of: $0, width: 390) }
    #expect(Self.attribute("data-error", ofBodyIn: dom) == nil)
    #expect(Self.attribute("data-overflow", ofBodyIn: dom) == "false")
  }
}
