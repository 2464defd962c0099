import Entitlements
import Foundation
import LegacyReceipts
import Testing

@testable import MigrationReports

/// A large run stays usable: rows and evidence stop at their limits (matches are the first left
/// out), and the page grows by a bounded number of bytes per listed account. 2,000 accounts by default; set
/// `REPORT_SCALE_ACCOUNTS=100000` to check the size of a 100,000-account report (and
/// `REPORT_SCALE_DIRECTORY` to keep the files, for a browser).
@Suite("Large runs")
struct ScaleTests {
  static var accountCount: Int {
    ProcessInfo.processInfo.environment["REPORT_SCALE_ACCOUNTS"].flatMap { Int($0) } ?? 2_000
  }

  /// A synthetic run: nine in ten accounts match, the others spread over every key-level
  /// category, each with realistic evidence.
  static func comparisons(count: Int) -> [AccountComparison] {
    let keyLevel = DiscrepancyCategory.allCases.filter { !$0.isAccountLevel && $0 != .match }
    return (0..<count).map { index in
      let id =
        "user-" + String(String(index).reversed()).padding(toLength: 7, withPad: "0", startingAt: 0)
      let category = index % 10 == 0 ? keyLevel[(index / 10) % keyLevel.count] : .match
      let old = SampleWorld.view(.active, expires: "2024-07-01T00:00:00Z")
      let new = SampleWorld.view(
        category == .match ? .active : .expired,
        expires: index % 3 == 0 ? "2024-06-01T00:00:00Z" : "2024-07-01T00:00:00Z")
      return SampleWorld.keyed(
        id, category, category == .match ? nil : .freshness,
        category == .match
          ? "both active until 2024-07-01" : "expired on 2024-06-01 after the snapshot",
        old: old, new: new, oldAtCapture: old, newAtCapture: old)
    }
  }

  @Test("a large report keeps every row, caps the evidence, and stays within its byte budget")
  func size() throws {
    let count = Self.accountCount
    let comparisons = Self.comparisons(count: count)
    let options = ReportOptions()
    let files = ReportWriter.render(
      summary: SampleWorld.simulatedSummary, comparisons: comparisons, options: options)
    let html = files[0].text
    let rows = html.components(separatedBy: " data-cat=\"").count - 1
    let details = html.components(separatedBy: "<details>").count - 1
    let discrepancies = comparisons.filter { $0.category != .match }.count
    #expect(rows == min(count, options.htmlRowLimit))
    #expect(details == min(discrepancies, options.htmlEvidenceLimit))
    // Every account that does not match is listed before any match is.
    let listedMatches = html.components(separatedBy: "<tbody data-cat=\"match\" ").count - 1
    #expect(listedMatches == max(0, min(count, options.htmlRowLimit) - discrepancies))
    // The budget: about 400 bytes per row and 4 KB per expandable evidence, plus the page.
    let budget = 400 * rows + 4_096 * details + 200_000
    #expect(
      files[0].bytes.count <= budget,
      "report.html has \(files[0].bytes.count) bytes, over \(budget)")
    let sizes = files.map { "\($0.name) \(ReportFormatting.count($0.bytes.count)) bytes" }
    print("Large run, \(ReportFormatting.count(count)) accounts: " + sizes.joined(separator: ", "))
    if let directory = ProcessInfo.processInfo.environment["REPORT_SCALE_DIRECTORY"] {
      try ReportWriter.write(
        summary: SampleWorld.simulatedSummary, comparisons: comparisons, to: directory,
        options: options)
    }
  }
}
