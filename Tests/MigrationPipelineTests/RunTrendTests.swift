import Chronology
import Foundation
import MigrationReports
import MigrationStore
import TestDirectories
import Testing

@testable import MigrationPipeline

/// The trend an audit's report is given: the store's complete runs before it, oldest first, and
/// links to the reports whose folders still exist, relative to the new report's folder.
/// (Our own code only: a real store and real folders.)
@Suite("Run trend of an audit's report")
struct RunTrendTests {
  /// Records a run with a summary counting `losing` accounts that lose access.
  static func run(
    _ id: String, started: Int64, losing: Int, complete: Bool = true, reports: URL,
    in store: MigrationStore
  ) throws {
    try store.runLedger.begin(
      RunRow(
        id: id, startedMilliseconds: started, finishedMilliseconds: nil, asOfMilliseconds: started,
        isSimulated: true, inputs: "{}", summary: nil, command: "audit",
        commandLine: #"["audit"]"#, recipeKey: "k1"))
    var summary = RunSummary(
      runId: id, toolVersion: "test", startedAt: Timestamp(millisecondsSince1970: started),
      finishedAt: Timestamp(millisecondsSince1970: started + 1),
      asOf: Timestamp(millisecondsSince1970: started),
      appStore: AppStoreSource(isSimulated: true, description: "test", environment: "auto"),
      inputs: RunInputs(recordsRead: 10, recordsAccepted: 10, recordsQuarantined: 0, accounts: 10))
    summary.command = "audit"
    summary.impactCounts = [.losesAccess: losing]
    try store.runLedger.finish(
      id, finishedMilliseconds: started + 1, summary: RunSummaryCodec.encode(summary))
    guard complete else { return }
    let folder = reports.appendingPathComponent(id)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("<!DOCTYPE html>\n".utf8).write(to: folder.appendingPathComponent("report.html"))
    try store.runLedger.markReported(id, directory: folder.path, at: started + 2)
    try store.runLedger.recordEnd(id, exitCode: 0, at: started + 3)
  }

  @Test("five runs: complete ones before this run, oldest first; links only to folders that exist")
  func fiveRuns() throws {
    let scratch = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(scratch) }
    let reports = scratch.appendingPathComponent("Reports")
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    defer { try? store.close() }
    try Self.run("n1", started: 1_000, losing: 5, reports: reports, in: store)
    try Self.run("n2", started: 2_000, losing: 4, reports: reports, in: store)
    try Self.run("n3", started: 3_000, losing: 3, complete: false, reports: reports, in: store)
    try Self.run("n4", started: 4_000, losing: 2, reports: reports, in: store)
    try Self.run("n5", started: 5_000, losing: 1, complete: false, reports: reports, in: store)
    // Retention removed the first night's folder.
    try FileManager.default.removeItem(at: reports.appendingPathComponent("n1"))

    let points = try RunTrend.points(of: "n5", in: store, reportsDirectory: reports.path)
    #expect(points.map(\.entry.runId) == ["n1", "n2", "n4", "n5"])
    #expect(points.map(\.reportLink) == [nil, "../n2/report.html", "../n4/report.html", nil])
    #expect(points.map { $0.entry.impactCounts[.losesAccess] } == [5, 4, 2, 1])
    // From the report's own folder, each link names a file that is there.
    for link in points.compactMap(\.reportLink) {
      let target = reports.appendingPathComponent("n5").appendingPathComponent(link)
      #expect(FileManager.default.fileExists(atPath: target.standardizedFileURL.path))
    }
    #expect(try RunTrend.points(of: "unknown", in: store, reportsDirectory: reports.path).isEmpty)
  }

  @Test(
    "relative paths between folders",
    arguments: [
      ("/a/Reports/r2", "/a/Reports/r1/report.html", "../r1/report.html"),
      ("/a/Reports/r2", "/b/Old/r1/report.html", "../../../b/Old/r1/report.html"),
      ("/a/Reports/r2", "/a/Reports/r2/report.html", "report.html"),
    ])
  func relativePaths(base: String, target: String, expected: String) {
    #expect(RunTrend.relativePath(from: base, to: target) == expected)
  }
}
