import Foundation
import TestDirectories
import Testing

/// `receipt-migrate diff` as a user runs it: two run ids of one store, and two report folders
/// of different stores, give the same account moves as the audit's own "since the last run";
/// the store records nothing. Real processes and the embedded simulator; our own code only.
@Suite("receipt-migrate diff, end to end")
struct DiffCommandEndToEndTests {
  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  static func runIds(_ directory: URL, store: String) throws -> [String] {
    let runs = try Tool.run(["runs", "--db", store, "--json"], in: directory)
    let list = try #require(try Self.json(runs.standardOutput)["runs"] as? [[String: Any]])
    return list.compactMap { $0["run_id"] as? String }
  }

  @Test("run ids and report folders of two stores give the same moves; nothing is recorded")
  func diff() throws {
    let directory = try TemporaryDirectory.make(prefix: "diff-e2e")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      [
        "simulator", "generate", "--accounts", "80", "--seed", "12", "--days-after", "20",
        "--out", "world",
      ], in: directory)
    try #require(generated.status == 0, "\(generated.standardError)")
    let migrate = try Tool.run(
      ["migrate", "--world", "world", "--db", "one.sqlite", "--reports", "r1"], in: directory)
    #expect([0, 4].contains(migrate.status), "\(migrate.standardError)")
    let audit = try Tool.run(
      [
        "audit", "--world", "world", "--clock", "2025-11-15T00:00:00Z", "--db", "one.sqlite",
        "--reports", "r1", "--json",
      ], in: directory)
    #expect([0, 1, 4].contains(audit.status), "\(audit.standardError)")
    let since = try #require(
      try Self.json(audit.standardOutput)["since_previous_run"] as? [String: Any])
    let ids = try Self.runIds(directory, store: "one.sqlite")
    try #require(ids.count == 2)
    let (earlier, later) = (ids[1], ids[0])

    // Two run ids of the store: the same moves as the audit's own count, and no run recorded.
    let byId = try Tool.run(
      ["diff", earlier, later, "--db", "one.sqlite", "--json", "--html", "diff.html"],
      in: directory)
    #expect(byId.status == 0, "\(byId.standardError)")
    let diff = try Self.json(byId.standardOutput)
    for side in ["primary", "table"] {
      let counted = try #require(diff[side] as? [String: Int])
      let audited = try #require(since[side] as? [String: Any])
      for kind in ["new_finding", "resolved", "category_changed", "persisting"] {
        #expect(counted[kind] == audited[kind] as? Int, "\(side) \(kind)")
      }
    }
    #expect(try Self.runIds(directory, store: "one.sqlite") == ids, "diff recorded a run")
    let page = try String(
      contentsOf: directory.appendingPathComponent("diff.html"), encoding: .utf8)
    #expect(page.contains("What changed from run \(earlier) to \(later)"))

    // A second store made from the same world at the later instant: its report folder against
    // the first store's earlier report folder gives the same account moves.
    let other = try Tool.run(
      [
        "migrate", "--world", "world", "--clock", "2025-11-15T00:00:00Z", "--db", "two.sqlite",
        "--reports", "r2",
      ], in: directory)
    #expect([0, 4].contains(other.status), "\(other.standardError)")
    let folders = try Tool.run(
      ["diff", "r1/\(earlier)", "r2/latest", "--json"], in: directory)
    #expect(folders.status == 0, "\(folders.standardError)")
    let folderDiff = try Self.json(folders.standardOutput)
    let moves = { (diff: [String: Any]) -> [String] in
      (diff["changes"] as? [[String: Any]] ?? []).map {
        "\($0["account_id"] ?? "") \(($0["primary"] as? [String: Any])?["to"] ?? "-")"
      }
    }
    #expect(moves(folderDiff) == moves(diff))
    #expect((folderDiff["accounts"] as? [String: Any])?["after"] as? Int == 80)

    // The terminal form, and a side that is neither a run nor a report folder.
    let text = try Tool.run(["diff", earlier, later, "--db", "one.sqlite"], in: directory)
    #expect(text.standardOutput.contains("Primary category (old logic vs the App Store):"))
    let missing = try Tool.run(["diff", "nope", later, "--db", "one.sqlite"], in: directory)
    #expect(missing.status == 3)
    #expect(missing.standardError.contains("has no run nope"))
  }
}
