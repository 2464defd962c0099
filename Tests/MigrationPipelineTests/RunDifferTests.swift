import Foundation
import MigrationPipeline
import MigrationReports
import TestDirectories
import Testing

/// `diff`'s core over report folders written by hand: which accounts moved how, on which side,
/// with which evidence lines; accounts on one side only; inputs that differ; and input that is
/// not a report named with its file and line. Our own code only.
@Suite("diff: two runs' classifications, account by account")
struct RunDifferTests {
  /// Writes a report folder holding `run.json` and `discrepancies.ndjson` lines.
  static func folder(
    in directory: URL, _ name: String, asOf: String, table: Bool = true, catalog: String = "p.csv",
    _ records: [String]
  ) throws -> URL {
    let folder = directory.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let run = """
      {"schema_version": 3, "run_id": "\(name)", "tool_version": "0.1.0", "as_of": "\(asOf)",
       "team_table": {"compared": \(table)}, "redaction": {"redacted": false},
       "used_inputs": [{"name": "catalog", "value": "\(catalog)", "origin": "flag"},
                       {"name": "reports", "value": "/somewhere", "origin": "flag"}]}
      """
    try Data(run.utf8).write(to: folder.appendingPathComponent("run.json"))
    try Data(records.joined(separator: "\n").utf8).write(
      to: folder.appendingPathComponent("discrepancies.ndjson"))
    return folder
  }

  static func record(_ id: String, _ category: String, table: String?, _ explanation: String)
    -> String
  {
    let tableField = table.map { ", \"table_category\": \"\($0)\"" } ?? ""
    return
      "{\"account_id\": \"\(id)\", \"category\": \"\(category)\"\(tableField), "
      + "\"explanation\": \"\(explanation)\"}"
  }

  @Test(
    "new, resolved, other and persisting categories on both sides, with the evidence that changed")
  func moves() throws {
    let directory = try TemporaryDirectory.make(prefix: "diff")
    defer { TemporaryDirectory.remove(directory) }
    let before = try Self.folder(
      in: directory, "a", asOf: "2025-01-01T00:00:00Z",
      [
        Self.record("u1", "match", table: "match", "x; both sides agree"),
        Self.record("u2", "refund_missed", table: "refund_missed", "refunded on 2024-12-01; x"),
        Self.record("u3", "grace_missed", table: "match", "in grace until 2025-01-05"),
        Self.record("u4", "expiry_drift", table: "expiry_drift", "drift of 3 days"),
        Self.record("gone", "match", table: "match", "both sides agree"),
      ])
    let after = try Self.folder(
      in: directory, "b", asOf: "2025-01-02T00:00:00Z", catalog: "q.csv",
      [
        Self.record("u4", "expiry_drift", table: "expiry_drift", "drift of 3 days"),
        Self.record("u3", "stale_renewed", table: "stale_renewed", "active until 2025-02-05"),
        Self.record("u2", "match", table: "refund_missed", "both sides agree"),
        Self.record("u1", "refund_missed", table: "match", "refunded on 2025-01-01; x"),
        Self.record("new", "gains_access", table: nil, "y"),
      ])
    let diff = try RunDiffer.diff(
      try RunDiffSide.reportFolder(before), try RunDiffSide.reportFolder(after))
    #expect(diff.primary[.newFinding] == 1)
    #expect(diff.primary[.resolved] == 1)
    #expect(diff.primary[.categoryChanged] == 1)
    #expect(diff.primary[.persisting] == 1)
    #expect(diff.table?[.newFinding] == 1)
    #expect(diff.table?[.persisting] == 2)
    #expect(diff.onlyBefore == ["gone"])
    #expect(diff.onlyAfter == ["new"])
    #expect(diff.changes.map(\.accountId) == ["u1", "u2", "u3"])
    let u1 = try #require(diff.changes.first)
    #expect(u1.primary?.arrow == "match → refund_missed")
    #expect(u1.table == nil)
    #expect(u1.evidenceRemoved == ["both sides agree"])
    #expect(u1.evidenceAdded == ["refunded on 2025-01-01"], "the unchanged clause x is not listed")
    #expect(diff.inputDifferences.contains { $0.contains("comparison instants differ") })
    #expect(diff.inputDifferences.contains("--catalog differs: p.csv and q.csv"))
    #expect(!diff.inputDifferences.contains { $0.contains("reports") })

    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(RunDiffJSONRenderer.render(diff)))
        as? [String: Any])
    #expect((json["changes"] as? [Any])?.count == 3)
    let html = RunDiffHTMLRenderer.render(diff)
    #expect(html.contains("script-src 'none'"))
    #expect(!html.contains("<script"))
  }

  @Test("a record that is not JSON, or an account listed twice, is named with its file")
  func badInput() throws {
    let directory = try TemporaryDirectory.make(prefix: "diff-bad")
    defer { TemporaryDirectory.remove(directory) }
    let good = try Self.folder(
      in: directory, "good", asOf: "2025-01-01T00:00:00Z",
      [Self.record("u1", "match", table: nil, "")])
    let broken = try Self.folder(
      in: directory, "broken", asOf: "2025-01-01T00:00:00Z",
      [Self.record("u1", "match", table: nil, ""), "{not json"])
    let blank = try Self.folder(
      in: directory, "blank", asOf: "2025-01-01T00:00:00Z",
      [Self.record("u1", "match", table: nil, ""), " \t", ""])
    #expect(
      try RunDiffer.diff(try RunDiffSide.reportFolder(good), try RunDiffSide.reportFolder(blank))
        .accountsAfter == 1, "a blank line is no record")
    let twice = try Self.folder(
      in: directory, "twice", asOf: "2025-01-01T00:00:00Z",
      [Self.record("u1", "match", table: nil, ""), Self.record("u1", "match", table: nil, "")])
    #expect {
      try RunDiffer.diff(
        try RunDiffSide.reportFolder(good), try RunDiffSide.reportFolder(broken))
    } throws: { "\($0)".contains("discrepancies.ndjson line 2 is not JSON") }
    #expect {
      try RunDiffer.diff(
        try RunDiffSide.reportFolder(twice), try RunDiffSide.reportFolder(good))
    } throws: { "\($0)".contains("lists the account u1 twice") }
    #expect {
      try RunDiffSide.reportFolder(directory)
    } throws: { "\($0)".contains("run.json cannot be read") }
  }
}
