import CSVReference
import Foundation
import TestDirectories
import Testing

@testable import MigrationPipeline

/// The team table's account and product ids as Python's `csv` module reads them, from random
/// tables with commas, quotes, doubled quotes, non-ASCII text and LF, CRLF and lone-CR line
/// ends. Kind of evidence: code nobody here wrote (Python's standard library) judges ours.
/// Fields have no white space at their ends: the reader trims it and Python keeps it, a
/// documented difference rather than a disagreement.
@Suite("Team table against Python's csv module")
struct TeamTableAgainstPythonTests {
  @Test(
    "every row's account and product are the bytes Python reads",
    .enabled(if: PythonCSV.interpreter != nil, "\(PythonCSV.missingMessage)"),
    arguments: 0..<3 as Range<UInt64>)
  func agreesWithPython(seed: UInt64) throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("table.csv")
    var sample = CSVSample(seed: seed)
    let statuses = ["active", "expired", "billing_retry", "grace_period", "revoked", "entitled"]
    var text = "account_id,product_id,status,expires_at" + sample.lineBreak()
    let rowCount = 2_000
    for _ in 0..<rowCount {
      let fields = [
        sample.field(nonEmpty: true), sample.field(nonEmpty: true),
        statuses[sample.next(below: statuses.count)], "",
      ]
      text += sample.line(fields) + sample.lineBreak()
    }
    try Data(text.utf8).write(to: file)

    var ours: [[[UInt8]]] = []
    let outcome = try CurrentEntitlementsReader.read(file.path) { rows in
      ours += rows.map { [Array($0.accountId.utf8), Array($0.row.productId.utf8)] }
    }
    let theirs = try PythonCSV.leadingPairs(ofFileAt: file.path)
    #expect(outcome.rejected.isEmpty, "\(outcome.rejected.prefix(3))")
    #expect(theirs.count == rowCount)
    let difference = PythonCSV.firstDifference(ours: ours, theirs: theirs)
    #expect(difference == nil, "\(difference ?? "")")
  }

  /// Quotes where RFC 4180 does not put them, as Python's default dialect reads them: a quote
  /// after a space, or in mid-field, is data, and so is what follows a closing quote. The table
  /// reader once took any quote as opening or closing quoting.
  @Test(
    "a quote after a space or in mid-field is data, as Python reads it",
    .enabled(if: PythonCSV.interpreter != nil, "\(PythonCSV.missingMessage)"),
    arguments: 0..<3 as Range<UInt64>)
  func looseQuotesAsPythonReadsThem(seed: UInt64) throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("table.csv")
    var sample = CSVSample(seed: seed &+ 3_000)
    var text = "account_id,product_id,status,expires_at" + sample.lineBreak()
    text += #" "a1, "pro.monthly",active,"# + sample.lineBreak()
    let rowCount = 1_000
    for _ in 1..<rowCount {
      text += [sample.looseField(), sample.looseField(), "active", ""].joined(separator: ",")
      text += sample.lineBreak()
    }
    try Data(text.utf8).write(to: file)

    var ours: [[[UInt8]]] = []
    let outcome = try CurrentEntitlementsReader.read(file.path) { rows in
      ours += rows.map { [Array($0.accountId.utf8), Array($0.row.productId.utf8)] }
    }
    let theirs = try PythonCSV.leadingPairs(ofFileAt: file.path, trimmingSpaces: true)
    #expect(outcome.rejected.isEmpty, "\(outcome.rejected.prefix(3))")
    #expect(theirs.count == rowCount)
    #expect(ours.first == [Array(#""a1"#.utf8), Array(#""pro.monthly""#.utf8)])
    let difference = PythonCSV.firstDifference(ours: ours, theirs: theirs)
    #expect(difference == nil, "\(difference ?? "")")
  }
}
