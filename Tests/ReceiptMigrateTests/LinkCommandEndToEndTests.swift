import Foundation
import TestDirectories
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `receipt-migrate link` against `simulator serve` in a child process: the plan, `--apply` and
/// `--undo` each killed with SIGKILL mid-run and rerun, the journal, and what the served App
/// Store holds afterwards (read back by a fresh audit into a new database).
@Suite("receipt-migrate link, end to end")
struct LinkCommandEndToEndTests {
  typealias Server = AuditCommandEndToEndTests.Server
  static let first = "6f3c1a52-9b0e-4d7a-8f21-5c4e3b2a1d09"
  static let second = "0b6b2f4e-5a71-4c2d-9e83-7f1a2b3c4d5e"

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static func json(_ text: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    else { throw Failure(description: "not a JSON object: \(text)") }
    return object
  }

  /// Runs `link` with `arguments`, killing it with SIGKILL once the server has logged
  /// `requests` more requests; then reruns it to the end and returns the rerun's JSON.
  static func killAndResume(
    _ arguments: [String], after requests: Int, server: Server, in directory: URL
  ) throws -> [String: Any] {
    let (link, _) = try Tool.start(arguments, in: directory, environment: server.environment)
    defer { Tool.stop(link) }
    try server.waitForRequests(requests)
    kill(link.processIdentifier, SIGKILL)
    link.waitUntilExit()
    #expect(link.terminationReason == .uncaughtSignal, "link finished before the kill")
    let resumed = try Tool.run(
      arguments + ["--json"], in: directory, environment: server.environment)
    #expect(resumed.status == 0, "\(resumed.standardError)")
    return try json(resumed.standardOutput)
  }

  /// The account-token counts of a fresh audit of the served App Store into a new database.
  static func freshAudit(namespace: String, name: String, server: Server, in directory: URL)
    throws -> [String: Any]
  {
    let audit = try Tool.run(
      AuditCommandEndToEndTests.auditArguments(
        database: "\(name).sqlite", reports: name, table: nil) + ["--derive-tokens", namespace],
      in: directory, environment: server.environment)
    #expect(audit.status == 0, "\(audit.standardError)")
    let run = try json(
      String(
        contentsOf: directory.appendingPathComponent("\(name)/latest/run.json"), encoding: .utf8))
    return run["account_tokens"] as? [String: Any] ?? [:]
  }

  static func journal(_ database: URL, _ query: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [database.path, query]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The journal's rows of a run, `state|reason` each, counted.
  static func states(_ database: URL, run: String) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    let rows = try journal(
      database,
      "SELECT state || '|' || coalesce(reason, ''), count(*) FROM link_writes WHERE run_id = '\(run)' GROUP BY 1"
    )
    for line in rows.split(separator: "\n") {
      let fields = line.split(separator: "|", omittingEmptySubsequences: false)
      counts[fields.dropLast().joined(separator: "|"), default: 0] += Int(fields.last ?? "") ?? 0
    }
    return counts
  }

  @Test("plan, kill -9 during --apply and --undo, reruns that send each write at most once more")
  func killedApplyAndUndo() throws {
    let directory = try TemporaryDirectory.make(prefix: "link")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      ["simulator", "generate", "--accounts", "40", "--seed", "43", "--out", "world"],
      in: directory)
    #expect(generated.status == 0, "\(generated.standardError)")
    let server = try Server(
      world: "world", clock: "2025-11-01T00:00:00Z", latency: "20ms", in: directory)
    defer { server.stop() }
    let migration = try Tool.run(
      AuditCommandEndToEndTests.auditArguments(database: "store.sqlite", reports: "r", table: nil)
        + ["--derive-tokens", Self.first],
      in: directory, environment: server.environment)
    #expect(migration.status == 0, "\(migration.standardError)")
    let link = ["link", "--db", "store.sqlite", "--concurrency", "2"]

    // The dry run plans and sends nothing; it names the App Store it would write to.
    let before = server.requestLines.count
    let plan = try Tool.run(
      link + ["--derive-tokens", Self.first, "--json"], in: directory,
      environment: server.environment)
    #expect(plan.status == 0, "\(plan.standardError)")
    let planJSON = try Self.json(plan.standardOutput)
    let planned = try #require(planJSON["planned"] as? Int)
    #expect(planned > 10)
    #expect(planJSON["sent"] as? Int == 0)
    #expect((planJSON["app_store"] as? String)?.contains("NOT Apple: at http://127.0.0.1:") == true)
    #expect(planJSON["not_undoable"] as? Int == planned, "every purchase lacks a token")
    let skipped = try #require(planJSON["skipped"] as? Int)
    try server.waitForRequests(0)
    #expect(server.requestLines.count == before, "a dry run sends nothing")

    // Without --yes, writes that cannot be undone are refused before anything is sent.
    let unconfirmed = try Tool.run(
      link + ["--derive-tokens", Self.first, "--apply"], in: directory,
      environment: server.environment)
    #expect(unconfirmed.status == 2)
    #expect(
      unconfirmed.standardError.contains("\(planned) of the \(planned) write(s)"),
      "\(unconfirmed.standardError)")

    // --apply, killed after a few requests, then rerun: every write once, journaled.
    let applied = try Self.killAndResume(
      link + ["--derive-tokens", Self.first, "--apply", "--yes"], after: 5, server: server,
      in: directory)
    #expect(applied["planned"] as? Int == 0)
    let firstRun = try #require(applied["run_id"] as? String)
    let database = directory.appendingPathComponent("store.sqlite")
    let firstStates = try Self.states(database, run: firstRun)
    #expect(firstStates["confirmed|"] == planned, "\(firstStates)")
    #expect(firstStates.filter { $0.key.hasPrefix("skipped|") }.values.reduce(0, +) == skipped)
    #expect(firstStates.keys.allSatisfy { $0.hasPrefix("confirmed|") || $0.hasPrefix("skipped|") })

    // The store knows the new tokens: a second dry run plans nothing.
    let again = try Tool.run(
      link + ["--derive-tokens", Self.first, "--json"], in: directory,
      environment: server.environment)
    #expect(try Self.json(again.standardOutput)["planned"] as? Int == 0)

    // Another mapping: every token differs, so each write can be undone; applied, then undone,
    // each killed mid-run.
    let replacing = try Self.json(
      try Tool.run(
        link + ["--derive-tokens", Self.second, "--json"], in: directory,
        environment: server.environment
      ).standardOutput)
    #expect(replacing["undoable"] as? Int == planned && replacing["not_undoable"] as? Int == 0)
    let replaced = try Self.killAndResume(
      link + ["--derive-tokens", Self.second, "--apply", "--yes"], after: 4, server: server,
      in: directory)
    #expect(replaced["planned"] as? Int == 0)
    let secondRun = try #require(replaced["run_id"] as? String)
    let undone = try Self.killAndResume(
      link + ["--undo", secondRun], after: 4, server: server, in: directory)
    #expect(undone["planned"] as? Int == 0)
    #expect(undone["failed"] as? Int == 0)
    let undoRun = try #require(undone["run_id"] as? String)
    let secondStates = try Self.states(database, run: secondRun)
    #expect(secondStates["undone|"] == planned, "\(secondStates)")
    #expect(
      secondStates.filter { $0.key.hasPrefix("skipped|") }.values.reduce(0, +) == skipped
        && secondStates.count { !$0.key.hasPrefix("skipped|") } == 1, "\(secondStates)")
    let undoStates = try Self.states(database, run: undoRun)
    #expect(undoStates == ["confirmed|": planned], "\(undoStates)")

    // --list shows the three runs with their counts.
    let listed = try Self.json(
      try Tool.run(link + ["--list", "--json"], in: directory).standardOutput)
    let runs = try #require(listed["runs"] as? [[String: Any]])
    #expect(runs.map { $0["run_id"] as? String } == [undoRun, secondRun, firstRun])
    #expect((runs[1]["states"] as? [String: Any])?["undone"] as? Int == planned)
    let text = try Tool.run(link + ["--list"], in: directory)
    #expect(text.status == 0 && text.standardOutput.contains("undo of \(secondRun)"))

    // The served App Store holds the first mapping's tokens again, on every written purchase.
    let fresh = try Self.freshAudit(
      namespace: Self.first, name: "fresh", server: server, in: directory)
    let purchases = fresh["purchases"] as? [String: Any]
    #expect(purchases?["different"] as? Int == 0, "\(fresh)")
    #expect(purchases?["matches"] as? Int ?? 0 >= planned, "\(fresh)")
    // What is left is only what the plan skipped (consumables, refunds, lapses, shared ones).
    #expect(fresh["writes_needed"] as? Int ?? -1 >= skipped, "\(fresh)")

    // Three runs wrote each purchase once each: no write was repeated by a resumed run.
    server.stopAndDrain()
    let puts = server.requestLines[before...].filter { $0.contains(" PUT ") }
    var perPath: [String: Int] = [:]
    for line in puts {
      let fields = line.split(separator: " ")
      perPath[String(fields[3]), default: 0] += 1
      #expect(fields[4] == "200", "\(line)")
    }
    #expect(perPath.count == planned)
    #expect(perPath.values.allSatisfy { $0 == 3 }, "\(perPath.filter { $0.value != 3 })")
  }

  @Test(
    "usage: a mapping is required, --undo and --list take none, a bad --include is refused, an unknown run is a configuration error"
  )
  func usage() throws {
    let directory = try TemporaryDirectory.make(prefix: "link-usage")
    defer { TemporaryDirectory.remove(directory) }
    for arguments in [
      ["link", "--db", "s.sqlite"],
      ["link", "--db", "s.sqlite", "--undo", "x", "--derive-tokens", Self.first],
      ["link", "--db", "s.sqlite", "--derive-tokens", "acme"],
      ["link", "--db", "s.sqlite", "--list", "--apply"],
      ["link", "--db", "s.sqlite", "--derive-tokens", Self.first, "--include", "family"],
      ["link", "--db", "s.sqlite", "--derive-tokens", Self.first, "--lapsed-within", "soon"],
    ] {
      let result = try Tool.run(arguments, in: directory)
      #expect(result.status == 2, "\(arguments): \(result.standardError)")
    }
    let unknown = try Tool.run(
      ["link", "--db", "s.sqlite", "--undo", "link-x", "--simulated"], in: directory)
    #expect(unknown.status == 3, "\(unknown.standardError)")
    #expect(unknown.standardError.contains("no link run link-x"), "\(unknown.standardError)")
  }

  @Test(
    "without credentials, audit and link --apply and --undo refuse (exit 3, naming every setting) unless the simulator is asked for"
  )
  func simulatorOnlyWhenAsked() throws {
    let directory = try TemporaryDirectory.make(prefix: "link-simulated")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      ["simulator", "generate", "--accounts", "20", "--seed", "5", "--out", "world"],
      in: directory)
    #expect(generated.status == 0, "\(generated.standardError)")
    let migrated = try Tool.run(["migrate", "--world", "world", "--db", "s.sqlite"], in: directory)
    #expect(migrated.status == 0, "\(migrated.standardError)")
    let settings = [
      "ASC_ISSUER_ID", "ASC_KEY_ID", "ASC_PRIVATE_KEY_PATH", "APP_BUNDLE_ID", "APP_APPLE_ID",
      "APP_STORE_ROOT_CERTIFICATES", "issuer_id", "private_key_path", "root_certificates",
      "--simulated", "--world DIR",
    ]
    func expectRefused(_ arguments: [String]) throws {
      let refused = try Tool.run(arguments, in: directory)
      #expect(refused.status == 3, "\(arguments): \(refused.standardError)")
      for setting in settings {
        #expect(refused.standardError.contains(setting), "\(arguments): no \(setting)")
      }
      #expect(!refused.standardError.contains("SIMULATED"), "nothing was started")
    }
    try expectRefused(["audit", "--db", "s.sqlite"])
    try expectRefused(
      ["link", "--db", "s.sqlite", "--derive-tokens", Self.first, "--apply", "--yes"])
    // A dry run plans from the database, and says what --apply needs.
    let dryRun = try Tool.run(
      ["link", "--db", "s.sqlite", "--derive-tokens", Self.first], in: directory)
    #expect(dryRun.status == 0, "\(dryRun.standardError)")
    #expect(dryRun.standardOutput.contains("App Store: none configured"))

    // Asked for explicitly, each runs against the simulator and says so.
    let audit = try Tool.run(["audit", "--db", "s.sqlite", "--world", "world"], in: directory)
    #expect(audit.status == 0 || audit.status == 4, "\(audit.standardError)")
    #expect(audit.standardError.contains("SIMULATED App Store, as asked on the command line"))
    let apply = try Tool.run(
      [
        "link", "--db", "s.sqlite", "--derive-tokens", Self.first, "--apply", "--yes", "--world",
        "world", "--json",
      ], in: directory)
    #expect(apply.status == 0, "\(apply.standardError)")
    let applied = try Self.json(apply.standardOutput)
    #expect(applied["sent"] as? Int ?? 0 > 0)
    let runId = try #require(applied["run_id"] as? String)
    // The simulated App Store keeps what it was given beside the database, as Apple keeps it.
    #expect(
      FileManager.default.fileExists(
        atPath: directory.appendingPathComponent("s.sqlite.simulator-tokens").path))
    try expectRefused(["link", "--db", "s.sqlite", "--undo", runId])
    let undo = try Tool.run(
      ["link", "--db", "s.sqlite", "--undo", runId, "--world", "world", "--json"], in: directory)
    #expect(undo.status == 0, "\(undo.standardError)")
    #expect(try Self.json(undo.standardOutput)["kind"] as? String == "undo")

    // With credentials configured, asking for the simulator is a contradiction, not a fallback.
    let both = try Tool.run(
      ["audit", "--db", "t.sqlite", "--simulated"], in: directory,
      environment: [
        "ASC_ISSUER_ID": "3c5b1f0e-6a2d-4e8b-9f71-0d4c2b8a6e13", "ASC_KEY_ID": "SIMKEY0001",
        "ASC_PRIVATE_KEY_PATH": "world/signing/api-key.p8", "APP_BUNDLE_ID": "com.example.studio",
        "APP_STORE_ROOT_CERTIFICATES": "world/signing/root.pem", "APP_APPLE_ID": "1234567890",
      ])
    #expect(both.status == 3, "\(both.standardError)")
    #expect(both.standardError.contains("--simulated asks for the built-in simulator"))
  }

  @Test(
    "a database built from one served App Store is refused by link against another: plan, apply and undo"
  )
  func anotherAppStore() throws {
    let directory = try TemporaryDirectory.make(prefix: "link-mismatch")
    defer { TemporaryDirectory.remove(directory) }
    for (seed, name) in [("43", "world"), ("44", "other")] {
      let generated = try Tool.run(
        ["simulator", "generate", "--accounts", "20", "--seed", seed, "--out", name],
        in: directory)
      #expect(generated.status == 0, "\(generated.standardError)")
    }
    let server = try Server(
      world: "world", clock: "2025-11-01T00:00:00Z", latency: nil, in: directory)
    defer { server.stop() }
    let migration = try Tool.run(
      AuditCommandEndToEndTests.auditArguments(database: "store.sqlite", reports: "r", table: nil),
      in: directory, environment: server.environment)
    #expect(migration.status == 0, "\(migration.standardError)")
    let applied = try Tool.run(
      [
        "link", "--db", "store.sqlite", "--derive-tokens", Self.first, "--apply", "--yes", "--json",
      ],
      in: directory, environment: server.environment)
    #expect(applied.status == 0, "\(applied.standardError)")
    let runId = try #require(try Self.json(applied.standardOutput)["run_id"] as? String)

    let stranger = try Server(
      world: "other", clock: "2025-11-01T00:00:00Z", latency: nil, in: directory)
    defer { stranger.stop() }
    let before = stranger.requestLines.count
    for arguments in [
      ["--derive-tokens", Self.second], ["--derive-tokens", Self.second, "--apply", "--yes"],
      ["--undo", runId, "--yes"],
    ] {
      let refused = try Tool.run(
        ["link", "--db", "store.sqlite"] + arguments, in: directory,
        environment: stranger.environment)
      #expect(refused.status == 3, "\(arguments): \(refused.standardError)")
      #expect(refused.standardError.contains("holds data from"), "\(refused.standardError)")
    }
    try stranger.waitForRequests(0)
    #expect(stranger.requestLines.count == before, "nothing was sent to the other App Store")
  }

  @Test("mapping rows that cannot be used are listed and make the run exit 4")
  func quarantinedRows() throws {
    let directory = try TemporaryDirectory.make(prefix: "link-rows")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      ["simulator", "generate", "--accounts", "12", "--seed", "6", "--out", "world"],
      in: directory)
    #expect(generated.status == 0, "\(generated.standardError)")
    let migrated = try Tool.run(["migrate", "--world", "world", "--db", "s.sqlite"], in: directory)
    #expect(migrated.status == 0, "\(migrated.standardError)")
    try Data(
      "account_id,app_account_token\nu000001,\(Self.first)\nu000002,not-a-uuid\n".utf8
    ).write(to: directory.appendingPathComponent("tokens.csv"))
    let result = try Tool.run(
      ["link", "--db", "s.sqlite", "--tokens", "tokens.csv"], in: directory)
    #expect(result.status == 4, "\(result.standardError)")
    #expect(result.standardError.contains("tokens.csv:3: app_account_token"))
  }
}
