import Foundation
import TestDirectories
import Testing

/// The store remembers its recipe: after `migrate --world` with the world's catalogue and team
/// table, a plain `compare`, `audit` or `migrate` compares the same inputs and finds nothing
/// new; an ad-hoc run with another table says so and is not the next night's baseline; and
/// `recipe set` changes what later runs use. Real processes, the embedded simulator; our own
/// code on both sides.
@Suite("The store's recipe, end to end")
struct RecipeEndToEndTests {
  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test("plain runs after migrate use its inputs; an ad-hoc table is labelled and never a baseline")
  func recipeReused() throws {
    let directory = try TemporaryDirectory.make(prefix: "recipe")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      ["simulator", "generate", "--accounts", "60", "--seed", "9", "--out", "world"],
      in: directory)
    try #require(generated.status == 0, "\(generated.standardError)")
    let world = ["--world", "world", "--db", "s.sqlite", "--reports", "r"]
    let migrate = try Tool.run(["migrate", "--json"] + world, in: directory)
    #expect([0, 4].contains(migrate.status), "\(migrate.standardError)")
    let first = try Self.json(migrate.standardOutput)
    #expect((first["team_table"] as? [String: Any])?["compared"] as? Bool == true)

    // A plain compare: the catalogue and the table come from the recipe, nothing moved.
    let compare = try Tool.run(["compare", "--db", "s.sqlite", "--json"], in: directory)
    let compared = try Self.json(compare.standardOutput)
    let inputs = try #require(compared["used_inputs"] as? [[String: Any]])
    #expect(
      inputs.filter { $0["origin"] as? String == "recipe" }.compactMap { $0["name"] as? String }
        .sorted() == ["catalog", "current-entitlements"])
    let since = try #require(compared["since_previous_run"] as? [String: Any])
    #expect((since["primary"] as? [String: Any])?["new_finding"] as? Int == 0)
    #expect((since["primary"] as? [String: Any])?["resolved"] as? Int == 0)
    #expect((since["table"] as? [String: Any])?["new_finding"] as? Int == 0)
    #expect((since["input_differences"] as? [Any])?.isEmpty == true)

    // An ad-hoc run with another table (every row dropped): labelled, and not a baseline.
    let header = "account_id,product_id,status,expires_at\n"
    try Data(header.utf8).write(to: directory.appendingPathComponent("empty.csv"))
    let adHoc = try Tool.run(
      ["migrate", "--json", "--current-entitlements", "empty.csv"] + world, in: directory)
    let adHocRun = try Self.json(adHoc.standardOutput)
    let adHocInputs = try #require(adHocRun["used_inputs"] as? [[String: Any]])
    #expect(
      adHocInputs.contains {
        $0["name"] as? String == "current-entitlements" && $0["origin"] as? String == "flag"
      })
    let adHocSince = try #require(adHocRun["since_previous_run"] as? [String: Any])
    #expect(
      (adHocSince["input_differences"] as? [String])?.contains { $0.contains("another file") }
        == true)

    // The next plain audit compares with the first migrate, not with the ad-hoc run.
    let audit = try Tool.run(["audit", "--json"] + world, in: directory)
    let audited = try Self.json(audit.standardOutput)
    let auditSince = try #require(audited["since_previous_run"] as? [String: Any])
    #expect(auditSince["run_id"] as? String == first["run_id"] as? String)
    #expect((auditSince["table"] as? [String: Any])?["new_finding"] as? Int == 0)
    #expect((auditSince["input_differences"] as? [Any])?.isEmpty == true)

    // recipe set: the next run uses the new table, and the run says where it came from.
    let set = try Tool.run(
      ["recipe", "set", "current-entitlements", "empty.csv", "--db", "s.sqlite"], in: directory)
    #expect(set.status == 0, "\(set.standardError)")
    let shown = try Tool.run(["recipe", "show", "--json", "--db", "s.sqlite"], in: directory)
    let settings = try #require(try Self.json(shown.standardOutput)["settings"] as? [String: Any])
    let table = try #require(settings["current-entitlements"] as? [String: Any])
    #expect((table["value"] as? String)?.hasSuffix("/empty.csv") == true)
    #expect(table["set_by"] as? String == "recipe set")
    let unknown = try Tool.run(
      ["recipe", "set", "nonsense", "x", "--db", "s.sqlite"], in: directory)
    #expect(unknown.status == 2)
    let missing = try Tool.run(
      ["recipe", "set", "catalog", "nowhere.csv", "--db", "s.sqlite"], in: directory)
    #expect(missing.status == 3)

    // Every run is listed, with its command and status.
    let runs = try Self.json(
      try Tool.run(["runs", "--json", "--db", "s.sqlite"], in: directory).standardOutput)
    let listed = try #require(runs["runs"] as? [[String: Any]])
    #expect(
      listed.compactMap { $0["command"] as? String } == ["audit", "migrate", "compare", "migrate"])
    #expect(
      listed.compactMap { $0["status"] as? String } == [
        "complete", "complete", "compared", "complete",
      ])
  }
}
