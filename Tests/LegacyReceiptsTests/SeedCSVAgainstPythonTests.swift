import CSVReference
import Foundation
import LegacyReceipts
import TestDirectories
import Testing

/// Seed CSV rows as Python's `csv` module reads them, from random files whose quoted fields
/// hold commas, doubled quotes, non-ASCII text and line breaks (LF, CRLF, CR) inside them.
/// Kind of evidence: code nobody here wrote (Python's standard library) judges ours. Fields
/// have no spaces at their ends: the reader trims them and Python keeps them.
@Suite("Seed CSV against Python's csv module")
struct SeedCSVAgainstPythonTests {
  @Test(
    "every row's account id and transaction id are the bytes Python reads",
    .enabled(if: PythonCSV.interpreter != nil, "\(PythonCSV.missingMessage)"),
    arguments: 0..<3 as Range<UInt64>)
  func agreesWithPython(seed: UInt64) throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("seeds.csv")
    var sample = CSVSample(seed: seed &+ 1_000)
    var text = "account_id,original_transaction_id,note" + sample.lineBreak()
    let rowCount = 1_500
    for _ in 0..<rowCount {
      let id =
        String(1 + sample.next(below: 9)) + String(repeating: "0", count: sample.next(below: 15))
      let fields = [
        sample.field(nonEmpty: true, lineBreaks: true), id, sample.field(lineBreaks: true),
      ]
      text += sample.line(fields) + sample.lineBreak()
    }
    try Data(text.utf8).write(to: file)

    var ours: [[[UInt8]]] = []
    var quarantined: [QuarantinedRecord] = []
    try LegacyInputReader().read([file.path]) { event in
      switch event {
      case .record(let record):
        guard case .seed(let id?) = record.content else {
          Issue.record("a seed CSV row read as \(record.content)")
          return
        }
        ours.append([Array(record.accountId.utf8), Array(id.utf8)])
      case .quarantined(let entry): quarantined.append(entry)
      case .fileStarted, .progress, .skipped: break
      }
    }
    let theirs = try PythonCSV.leadingPairs(ofFileAt: file.path)
    #expect(quarantined.isEmpty, "\(quarantined.prefix(3))")
    #expect(theirs.count == rowCount)
    let difference = PythonCSV.firstDifference(ours: ours, theirs: theirs)
    #expect(difference == nil, "\(difference ?? "")")
  }

  /// Quotes where RFC 4180 does not put them, as Python's default dialect reads them: a quote
  /// after a space, or in mid-field, is data, and so is what follows a closing quote. The seed
  /// reader once opened a quoted field after spaces, reading `  "acct` as `acct"…` to the end
  /// of the line.
  @Test(
    "a quote after a space or in mid-field is data, as Python reads it",
    .enabled(if: PythonCSV.interpreter != nil, "\(PythonCSV.missingMessage)"),
    arguments: 0..<3 as Range<UInt64>)
  func looseQuotesAsPythonReadsThem(seed: UInt64) throws {
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let file = directory.appendingPathComponent("seeds.csv")
    var sample = CSVSample(seed: seed &+ 2_000)
    var text = "account_id,original_transaction_id,note" + sample.lineBreak()
    // The case the campaign found, by hand; then random ones.
    text += #" "acct-1,1000000000000001, "note"#
    text += sample.lineBreak()
    let rowCount = 800
    for _ in 1..<rowCount {
      let id =
        String(1 + sample.next(below: 9)) + String(repeating: "0", count: sample.next(below: 15))
      text += [sample.looseField(), id, sample.looseField()].joined(separator: ",")
      text += sample.lineBreak()
    }
    try Data(text.utf8).write(to: file)

    var ours: [[[UInt8]]] = []
    var quarantined: [QuarantinedRecord] = []
    try LegacyInputReader().read([file.path]) { event in
      switch event {
      case .record(let record):
        guard case .seed(let id?) = record.content else { return }
        ours.append([Array(record.accountId.utf8), Array(id.utf8)])
      case .quarantined(let entry): quarantined.append(entry)
      case .fileStarted, .progress, .skipped: break
      }
    }
    let theirs = try PythonCSV.leadingPairs(ofFileAt: file.path, trimmingSpaces: true)
    #expect(quarantined.isEmpty, "\(quarantined.prefix(3))")
    #expect(theirs.count == rowCount)
    #expect(ours.first == [Array(#""acct-1"#.utf8), Array("1000000000000001".utf8)])
    let difference = PythonCSV.firstDifference(ours: ours, theirs: theirs)
    #expect(difference == nil, "\(difference ?? "")")
  }
}
