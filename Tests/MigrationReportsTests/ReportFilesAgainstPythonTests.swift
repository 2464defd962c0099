import CSVReference
import Entitlements
import Foundation
import TestDirectories
import Testing

@testable import MigrationReports

/// `discrepancies.csv` and `discrepancies.ndjson` as Python's `csv` and `json` modules read
/// them, with account ids and explanations built to break a writer: commas, quotes, line
/// breaks, leading and trailing spaces, formula starts, non-ASCII text in both normalizations.
/// Kind of evidence: code nobody here wrote (Python's standard library) reads our files.
@Suite("Report files against Python's csv and json modules")
struct ReportFilesAgainstPythonTests {
  static let hostile = [
    "plain", "a,b", "q\"uote\"", "line\nbreak", "cr\r\nlf", "=SUM(A1)", "+1", "-x", "@y",
    "\ttab", "\rcr", " lead", "trail ", "jos\u{E9}", "jose\u{301}", "\u{65E5}\u{672C}",
    "emoji \u{1F600}", "\"", "",
  ]

  /// What the CSV shows for a value the NDJSON carries verbatim: a formula start gets `'`.
  static func shownInCSV(_ value: String) -> String {
    guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first)
    else { return value }
    return "'" + value
  }

  @Test(
    "every account id and explanation reads back as written, the formula guard aside",
    .enabled(if: PythonCSV.interpreter != nil, "\(PythonCSV.missingMessage)"))
  func readBack() throws {
    let comparisons = Self.hostile.enumerated().map { index, text in
      var comparison = SampleWorld.comparisons[index % SampleWorld.comparisons.count]
      comparison.accountId = "id-\(index)-" + text
      comparison.explanation = text + " (\(index))"
      return comparison
    }
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    for file in ReportWriter.render(
      summary: SampleWorld.productionSummary, comparisons: comparisons)
    where file.name.hasPrefix("discrepancies.") {
      try Data(file.bytes).write(to: URL(fileURLWithPath: directory + "/" + file.name))
    }
    let script = """
      import csv, json, sys
      with open(sys.argv[1], newline='', encoding='utf-8') as f:
          rows = [[r['account_id'], r['explanation']] for r in csv.DictReader(f)]
      with open(sys.argv[2], encoding='utf-8', newline='') as f:
          lines = [json.loads(line) for line in f.read().split('\\n') if line]
      json.dump({'csv': rows, 'ndjson': [[l['account_id'], l['explanation']] for l in lines]},
                sys.stdout)
      """
    let read = try #require(
      try PythonCSV.json(
        ofScript: script,
        arguments: [
          directory + "/discrepancies.csv", directory + "/discrepancies.ndjson",
        ]) as? [String: [[String]]])
    let csv = try #require(read["csv"])
    let ndjson = try #require(read["ndjson"])
    #expect(csv.count == comparisons.count)
    #expect(ndjson.count == comparisons.count)
    // The NDJSON carries each value byte for byte; the CSV the same values, guarded.
    let written = Set(comparisons.map { [Array($0.accountId.utf8), Array($0.explanation.utf8)] })
    #expect(Set(ndjson.map { $0.map { Array($0.utf8) } }) == written)
    for (row, line) in zip(csv, ndjson) {
      #expect(
        row.map { Array($0.utf8) } == line.map { Array(Self.shownInCSV($0).utf8) },
        "CSV \(row), NDJSON \(line)")
    }
  }
}
