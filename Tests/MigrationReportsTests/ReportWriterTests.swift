import Foundation
import TestDirectories
import Testing

@testable import MigrationReports

@Suite("Writing reports")
struct ReportWriterTests {
  @Test("writeRun writes five files into Reports/<run id> and points latest at it")
  func writeRun() throws {
    let root = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(root) }
    let reports = root + "/Reports"
    let directory = try ReportWriter.writeRun(
      summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons,
      reportsDirectory: reports)
    #expect(directory == reports + "/" + SampleWorld.simulatedSummary.runId)
    let rendered = ReportWriter.render(
      summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons)
    for file in rendered {
      let written = try #require(FileManager.default.contents(atPath: directory + "/" + file.name))
      #expect([UInt8](written) == file.bytes, "\(file.name) on disk differs from the rendering")
      #expect(try TestFiles.mode(directory + "/" + file.name) == 0o600)
    }
    #expect(try TestFiles.mode(directory) == 0o700)
    let contents = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    #expect(
      contents == ReportWriter.fileNames(for: SampleWorld.simulatedSummary).sorted(),
      "no temporary files are left behind")
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: reports + "/latest")
        == SampleWorld.simulatedSummary.runId)
    #expect(FileManager.default.fileExists(atPath: reports + "/latest/report.html"))
  }

  @Test("half-written files and links a killed writer left are removed by the next run")
  func leftovers() throws {
    let root = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(root) }
    let reports = root + "/Reports"
    let old = reports + "/20260101T000000Z-dead"
    try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: true)
    try Data("complete".utf8).write(to: URL(fileURLWithPath: old + "/summary.md"))
    try Data("half".utf8).write(to: URL(fileURLWithPath: old + "/report.html.tmp"))
    try FileManager.default.createSymbolicLink(
      atPath: reports + "/.latest.20260101T000000Z-dead.tmp", withDestinationPath: "x")
    let directory = try ReportWriter.writeRun(
      summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons,
      reportsDirectory: reports)
    #expect(try FileManager.default.contentsOfDirectory(atPath: old) == ["summary.md"])
    let top = try FileManager.default.contentsOfDirectory(atPath: reports).sorted()
    #expect(
      top == ["20260101T000000Z-dead", SampleWorld.simulatedSummary.runId, "latest"].sorted())
    #expect(FileManager.default.fileExists(atPath: directory + "/run.json"))
  }

  @Test("a later run replaces the latest link, and rewriting a run replaces its files")
  func latestReplaced() throws {
    let reports = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(reports) }
    try ReportWriter.writeRun(
      summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons,
      reportsDirectory: reports)
    try ReportWriter.writeRun(
      summary: SampleWorld.productionSummary, comparisons: [], reportsDirectory: reports)
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: reports + "/latest")
        == SampleWorld.productionSummary.runId)
    try ReportWriter.writeRun(
      summary: SampleWorld.productionSummary, comparisons: SampleWorld.comparisons,
      reportsDirectory: reports)
    let ndjson = try String(
      contentsOfFile: reports + "/latest/discrepancies.ndjson", encoding: .utf8)
    #expect(ndjson.split(separator: "\n").count == SampleWorld.comparisons.count)
    let entries = try FileManager.default.contentsOfDirectory(atPath: reports).sorted()
    #expect(
      entries
        == [SampleWorld.simulatedSummary.runId, SampleWorld.productionSummary.runId, "latest"]
        .sorted())
  }

  @Test("a latest that is not a link is left alone, with an error that says what to do")
  func latestNotALink() throws {
    let reports = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(reports) }
    try FileManager.default.createDirectory(
      atPath: reports + "/latest", withIntermediateDirectories: true)
    do {
      try ReportWriter.writeRun(
        summary: SampleWorld.simulatedSummary, comparisons: [], reportsDirectory: reports)
      Issue.record("a folder named latest was replaced")
    } catch {
      #expect(error.kind == .cannotLinkLatest)
      #expect(
        error.message.contains("is not a symbolic link") && error.message.contains("move it away"))
    }
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: reports + "/latest", isDirectory: &isDirectory))
    #expect(isDirectory.boolValue)
  }

  @Test(
    "run ids that cannot name a folder are refused",
    arguments: [
      "", ".", "..", ".hidden", "latest", "a/b", "../escape", "with space", "tab\t", "é",
      String(repeating: "x", count: 129),
    ])
  func invalidRunIds(runId: String) throws {
    #expect(throws: ReportError.self) { try ReportWriter.validateRunId(runId) }
    var summary = SampleWorld.simulatedSummary
    summary.runId = runId
    let reports = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(reports) }
    #expect(throws: ReportError.self) {
      try ReportWriter.writeRun(summary: summary, comparisons: [], reportsDirectory: reports)
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: reports).isEmpty)
  }

  @Test(
    "valid run ids are accepted", arguments: ["20240615T120000Z-7f3a", "run_1", "a.b-c", "latest2"])
  func validRunIds(runId: String) throws {
    try ReportWriter.validateRunId(runId)
  }

  @Test("a folder that cannot be created is reported with its path")
  func unwritable() throws {
    let root = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(root) }
    try Data("a file".utf8).write(to: URL(fileURLWithPath: root + "/occupied"))
    do {
      try ReportWriter.write(
        summary: SampleWorld.simulatedSummary, comparisons: [], to: root + "/occupied/run")
      Issue.record("wrote below a file")
    } catch {
      #expect(error.kind == .cannotCreateDirectory)
      #expect(error.path == root + "/occupied")
    }
  }

  @Test("report.html expands evidence for discrepancies only, up to the limit, and says so")
  func evidenceLimit() {
    let discrepancies = SampleWorld.comparisons.filter { $0.category != .match }.count
    let full = ReportWriter.render(
      summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons)[0].text
    #expect(full.components(separatedBy: "<details>").count - 1 == discrepancies)
    #expect(!full.contains("only the first"))
    let limited = ReportWriter.render(
      summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons,
      options: ReportOptions(htmlEvidenceLimit: 2))[0].text
    #expect(limited.components(separatedBy: "<details>").count - 1 == 2)
    #expect(limited.contains("only the first 2 of \(discrepancies) other accounts do"))
    // Every account still has its row.
    #expect(
      limited.components(separatedBy: " data-cat=\"").count - 1 == SampleWorld.comparisons.count)
  }

  @Test("report.html lists rows up to the limit, matches last, and says how many are left out")
  func rowLimit() {
    let html = ReportWriter.render(
      summary: SampleWorld.simulatedSummary, comparisons: SampleWorld.comparisons,
      options: ReportOptions(htmlRowLimit: 25))[0].text
    #expect(html.components(separatedBy: " data-cat=\"").count - 1 == 25)
    #expect(html.components(separatedBy: "<tbody data-cat=\"match\" ").count - 1 == 1)
    #expect(html.contains("The first 25 of 28 accounts"))
    #expect(html.contains("the other 3 are left out"))
    #expect(html.contains("<table id=\"accounts\" data-accounts=\"28\">"))
  }
}
