import Foundation
import TestDirectories
import Testing

/// Five nights as cron runs them: `runs --json` lists every night with its command, status, as-of
/// and exit code, newest first, each compared with the night before; and `--keep-reports`
/// removes old report folders but never the latest nor the run the next night of the usual
/// inputs is compared with, even when an ad-hoc run with another table came after it. Real
/// processes and the embedded simulator; our own code only.
@Suite("Nights as a history: runs --json and --keep-reports, end to end")
struct NightsHistoryEndToEndTests {
  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test("five nights listed newest first; retention keeps the latest and the usual baseline")
  func fiveNights() throws {
    let directory = try TemporaryDirectory.make(prefix: "nights")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      [
        "simulator", "generate", "--accounts", "50", "--seed", "21", "--days-after", "6",
        "--out", "world",
      ], in: directory)
    try #require(generated.status == 0, "\(generated.standardError)")
    let store = ["--db", "s.sqlite", "--reports", "r"]
    let migrate = try Tool.run(["migrate", "--world", "world"] + store, in: directory)
    #expect([0, 4].contains(migrate.status), "\(migrate.standardError)")
    var statuses = [migrate.status]
    for day in 2...4 {
      let night = try Tool.run(
        ["audit", "--world", "world", "--clock", "2025-11-0\(day)T03:00:00Z"] + store,
        in: directory)
      #expect([0, 1, 4].contains(night.status), "\(night.standardError)")
      statuses.insert(night.status, at: 0)
    }
    // An ad-hoc night with another table: its inputs differ, so the usual baseline stays the
    // last night of the usual inputs, and retention keeps that night's report.
    let table = directory.appendingPathComponent("world/current-entitlements.csv")
    let rows = try String(contentsOf: table, encoding: .utf8).split(separator: "\n")
    try (rows.prefix(10).joined(separator: "\n") + "\n").write(
      to: directory.appendingPathComponent("other.csv"), atomically: true, encoding: .utf8)
    let adHoc = try Tool.run(
      [
        "audit", "--world", "world", "--clock", "2025-11-05T03:00:00Z", "--current-entitlements",
        "other.csv", "--keep-reports", "1",
      ] + store, in: directory)
    #expect([0, 1, 4].contains(adHoc.status), "\(adHoc.standardError)")
    statuses.insert(adHoc.status, at: 0)
    #expect(
      adHoc.standardError.contains("--keep-reports 1: removed 3 old report"),
      "\(adHoc.standardError)")

    let runs = try #require(
      try Self.json(
        try Tool.run(["runs", "--json", "--db", "s.sqlite"], in: directory).standardOutput)["runs"]
        as? [[String: Any]])
    #expect(
      runs.compactMap { $0["command"] as? String } == [
        "audit", "audit", "audit", "audit", "migrate",
      ])
    #expect(runs.allSatisfy { $0["status"] as? String == "complete" })
    #expect(runs.compactMap { $0["exit_code"] as? Int } == statuses.map(Int.init))
    #expect(
      runs.compactMap { ($0["as_of"] as? String)?.prefix(10) }.map(String.init) == [
        "2025-11-05", "2025-11-04", "2025-11-03", "2025-11-02", "2025-11-01",
      ])
    let ids = runs.compactMap { $0["run_id"] as? String }
    for (index, run) in runs.dropLast().enumerated() {
      #expect((run["since"] as? [String: Any])?["run_id"] as? String == ids[index + 1])
    }

    // Kept: the ad-hoc night (the latest) and the last night of the usual inputs (the next
    // usual night's baseline); removed: the three before it, which `report --run` can rewrite.
    let folders = try FileManager.default.contentsOfDirectory(
      atPath: directory.appendingPathComponent("r").path
    ).filter { $0 != "latest" }.sorted()
    #expect(folders == [ids[1], ids[0]].sorted())
    let usual = try Tool.run(
      ["audit", "--world", "world", "--clock", "2025-11-06T03:00:00Z", "--json"] + store,
      in: directory)
    let since = try Self.json(usual.standardOutput)["since_previous_run"] as? [String: Any]
    #expect(since?["run_id"] as? String == ids[1], "the usual night compares with the usual one")
  }
}
