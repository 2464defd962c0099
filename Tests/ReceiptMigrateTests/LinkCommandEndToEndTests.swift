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

  @Test("plan, kill -9 during --apply and --undo, reruns that finish without repeating a write")
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

    // The dry run plans and sends nothing.
    let before = server.requestLines.count
    let plan = try Tool.run(
      link + ["--derive-tokens", Self.first, "--json"], in: directory,
      environment: server.environment)
    #expect(plan.status == 0, "\(plan.standardError)")
    let planned = try #require(try Self.json(plan.standardOutput)["planned"] as? Int)
    #expect(planned > 10)
    #expect(try Self.json(plan.standardOutput)["applied"] as? Int == 0)
    let refused = try #require(try Self.json(plan.standardOutput)["refused"] as? Int)

    // --apply, killed after a few writes, then rerun: every write once, journaled.
    let applied = try Self.killAndResume(
      link + ["--derive-tokens", Self.first, "--apply"], after: 5, server: server, in: directory)
    #expect(applied["planned"] as? Int == 0)
    let firstRun = try #require(applied["run_id"] as? String)
    let database = directory.appendingPathComponent("store.sqlite")
    #expect(
      try Self.journal(
        database,
        "SELECT count(*) FROM link_writes WHERE run_id = '\(firstRun)' AND state = 'applied'")
        == "\(planned)")
    #expect(
      try Self.journal(
        database,
        "SELECT count(*) FROM link_writes WHERE run_id = '\(firstRun)' AND answered_ms IS NULL")
        == "0")

    // The store knows the new tokens: a second dry run plans nothing.
    let again = try Tool.run(
      link + ["--derive-tokens", Self.first, "--json"], in: directory,
      environment: server.environment)
    #expect(try Self.json(again.standardOutput)["planned"] as? Int == 0)

    // Another mapping: every token differs; applied, then undone, each killed mid-run.
    let replaced = try Self.killAndResume(
      link + ["--derive-tokens", Self.second, "--apply"], after: 4, server: server, in: directory)
    #expect(replaced["planned"] as? Int == 0)
    let secondRun = try #require(replaced["run_id"] as? String)
    let undone = try Self.killAndResume(
      link + ["--undo", secondRun], after: 4, server: server, in: directory)
    #expect(undone["planned"] as? Int == 0)
    #expect(undone["failed"] as? Int == 0)
    #expect(
      try Self.journal(
        database,
        "SELECT count(*) FROM link_writes WHERE run_id = '\(secondRun)' AND state = 'applied'")
        == "\(planned)")

    // The served App Store holds the first mapping's tokens again, on every purchase.
    let fresh = try Self.freshAudit(
      namespace: Self.first, name: "fresh", server: server, in: directory)
    let purchases = fresh["purchases"] as? [String: Any]
    #expect(purchases?["different"] as? Int == 0, "\(fresh)")
    #expect(purchases?["matches"] as? Int ?? 0 >= planned, "\(fresh)")
    // What is left is only what the plan refused (purchases several accounts claim).
    #expect(
      fresh["writes_needed"] as? Int ?? -1 >= 0
        && (fresh["writes_needed"] as? Int == 0) == (refused == 0), "\(fresh)")

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

  @Test("usage: a mapping is required, --undo takes none, an unknown run is a configuration error")
  func usage() throws {
    let directory = try TemporaryDirectory.make(prefix: "link-usage")
    defer { TemporaryDirectory.remove(directory) }
    let none = try Tool.run(["link", "--db", "s.sqlite"], in: directory)
    #expect(none.status == 2, "\(none.standardError)")
    let both = try Tool.run(
      ["link", "--db", "s.sqlite", "--undo", "x", "--derive-tokens", Self.first], in: directory)
    #expect(both.status == 2, "\(both.standardError)")
    let badNamespace = try Tool.run(
      ["link", "--db", "s.sqlite", "--derive-tokens", "acme"], in: directory)
    #expect(badNamespace.status == 2, "\(badNamespace.standardError)")
    let unknown = try Tool.run(["link", "--db", "s.sqlite", "--undo", "link-x"], in: directory)
    #expect(unknown.status == 3, "\(unknown.standardError)")
  }
}
