import Foundation
import Testing

@testable import MigrationReports

extension ReportInChromium {
  /// report.html at a phone's, a tablet's and a laptop's width (390, 768 and 1280 CSS pixels), in
  /// headless Chromium: never wider than the window, text and chart labels large enough to read,
  /// accounts as cards on the phone and as a table above it, and what to do first above the fold
  /// of a 1280 × 800 screen. Screenshots of each are kept in `.build/report-screenshots/` for a
  /// person to look at (the test prints where).
  ///
  /// Independent judge: the browser's layout boxes and computed styles decide every verdict.
  @Suite("layout at 390, 768 and 1280 px")
  struct BrowserLayoutTests {
    /// Where the screenshots go: `.build/` of the package, which git ignores.
    static let screenshots: URL = {
      let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
      return root.appendingPathComponent(".build/report-screenshots")
    }()

    @Test(
      "the page fits the window, text is at least 14 px, chart labels 11 px, accounts are cards on a phone",
      arguments: [Scenario.simulated, .audit], [390, 768, 1280])
    func layout(scenario: Scenario, width: Int) async throws {
      let measured = try await BrowserTests.withReport(scenario) { directory in
        let steps = try await BrowserHarness.run(
          reportIn: directory, width: width, steps: [.layout])
        try FileManager.default.createDirectory(
          at: Self.screenshots, withIntermediateDirectories: true)
        let page = URL(fileURLWithPath: directory + "/report.html")
        let shot = Self.screenshots.appendingPathComponent("\(scenario.rawValue)-\(width).png")
        try await Chromium.screenshot(of: page, to: shot.path, width: width, height: 2400)
        if width == 390 {
          // The view a phone shows after following the first line of "what to do first".
          let first = ActionList.of(
            ReportStatistics(comparisons: scenario.comparisons, topExplanationCount: 0),
            summary: scenario.summary, lostNotifications: scenario.summary.lostNotifications)[0]
          try await BrowserHarness.screenshot(
            reportIn: directory, fragment: String(first.target.fragment.dropFirst()), width: 390,
            height: 844,
            to: Self.screenshots.appendingPathComponent("\(scenario.rawValue)-390-first-action.png")
              .path)
        }
        FileHandle.standardError.write(
          Data("report.html screenshot: \(shot.path)\n".utf8))
        return steps[0]
      }

      let scrollWidth = measured["scrollWidth"] as? Int ?? .max
      let innerWidth = measured["innerWidth"] as? Int ?? 0
      #expect(
        scrollWidth <= innerWidth,
        "the page is \(scrollWidth) px wide in a \(innerWidth) px window: \(measured["widerThanWindow"] ?? "")"
      )
      #expect(measured["overflowFlag"] as? String == "false", "the page's own check disagrees")
      let label = measured["smallestChartLabel"] as? Double ?? 0
      #expect(label >= 11, "a chart label is drawn at \(label) px")
      #expect((measured["chartLabels"] as? Int ?? 0) > 0)
      #expect(
        measured["drawnBars"] as? String == String(BrowserTests.expectedBars(scenario)),
        "every non-empty bar of the charts this width shows has a size")
      let cards = measured["accountsAsCards"] as? Bool ?? false
      if width == 390 {
        let text = measured["smallestText"] as? Double ?? 0
        #expect(text >= 14, "text at \(text) px: \(measured["smallText"] ?? "")")
        let cell = measured["smallestAccountCell"] as? Double ?? 0
        #expect(cell >= 14, "an account cell at \(cell) px")
        #expect(cards, "the accounts are not stacked cards")
        let outside = measured["outsideList"] as? [String] ?? ["?"]
        #expect(outside.isEmpty, "evidence reaches past the list: \(outside)")
      } else {
        #expect(!cards, "the accounts are cards at \(width) px")
      }
      if width == 1280 {
        // What to do first is above the fold of a 1280 × 800 screen.
        let bottom = measured["actionsBottom"] as? Int ?? .max
        #expect(bottom <= 800, "what to do first ends at \(bottom) px")
      }
    }
  }
}
