import Foundation
import TestDirectories
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A nightly audit killed after its report is written, while it hands its alert over, then run
/// again: the second run alerts as the first would have (exit 1, the same new findings, the
/// same lost notifications). Real processes: `simulator serve`, `audit` killed with SIGKILL
/// while its `--notify-command` runs (a moment the test knows, not one it guesses), and a
/// sweep of kills at timed moments of the report's writing. The reference is the tool's own
/// uninterrupted run (our own code on both sides).
@Suite("An interrupted audit never swallows its alert")
struct InterruptedAlertTests {
  /// What a night's run.json tells: the new findings and lost notifications.
  static func told(_ json: String) throws -> String {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let since = object["since_previous_run"] as? [String: Any]
    let primary = since?["primary"] as? [String: Any]
    let table = since?["table"] as? [String: Any]
    let lost = object["lost_notifications"] as? [String: Any]
    return "new \(primary?["new_finding"] ?? "-")/\(table?["new_finding"] ?? "-"), "
      + "resolved \(primary?["resolved"] ?? "-")/\(table?["resolved"] ?? "-"), "
      + "lost \(lost?["count"] ?? "-"), exit \(object["exit_code"] ?? "-")"
  }

  /// The status `runs --json` gives the newest run of a store.
  static func newestStatus(in database: String, directory: URL) throws -> String? {
    let listed = try Tool.run(["runs", "--db", database, "--json"], in: directory)
    let object = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8))
    let runs = (object as? [String: Any])?["runs"] as? [[String: Any]]
    return runs?.first?["status"] as? String
  }

  static func copy(_ from: String, _ to: String, in directory: URL) throws {
    for suffix in ["", "-wal", "-shm"] {
      let source = directory.appendingPathComponent(from + suffix)
      guard FileManager.default.fileExists(atPath: source.path) else { continue }
      let target = directory.appendingPathComponent(to + suffix)
      try? FileManager.default.removeItem(at: target)
      try FileManager.default.copyItem(at: source, to: target)
    }
  }

  @Test(
    "SIGKILL while the alert is handed over, or while the report is written: the rerun alerts the same"
  )
  func killedWhileAlerting() throws {
    let directory = try TemporaryDirectory.make(prefix: "interrupted")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      [
        "simulator", "generate", "--accounts", "120", "--seed", "57", "--days-after", "8", "--out",
        "world",
      ], in: directory)
    #expect(generated.status == 0, "\(generated.standardError)")
    let table = try Tool.run(
      [
        "simulator", "expected", "--world", "world", "--at", "2025-11-08T00:00:00Z", "--table",
        "table.csv", "--out", "expected.csv",
      ], in: directory)
    #expect(table.status == 0, "\(table.standardError)")
    func audit(_ database: String, _ extra: [String] = []) -> [String] {
      AuditCommandEndToEndTests.auditArguments(
        database: database, reports: "reports-\(database)", table: "table.csv")
        + ["--fail-on", "new:table:any,new:any"] + extra
    }

    let first = try AuditCommandEndToEndTests.Server(
      world: "world", clock: "2025-11-01T00:00:00Z", latency: nil, in: directory)
    let migration = try Tool.run(
      audit("night0.sqlite"), in: directory, environment: first.environment)
    first.stop()
    #expect(migration.status == 1, "\(migration.standardError)")

    let server = try AuditCommandEndToEndTests.Server(
      world: "world", clock: "2025-11-08T00:00:00Z", latency: nil, in: directory)
    defer { server.stop() }
    try Self.copy("night0.sqlite", "reference.sqlite", in: directory)
    let reference = try Tool.run(
      audit("reference.sqlite", ["--json"]), in: directory, environment: server.environment)
    #expect(reference.status == 1, "the reference night must alert: \(reference.standardError)")
    let expected = try Self.told(reference.standardOutput)

    // Killed while its notify command runs: the report is committed, the alert not handed over.
    try Self.copy("night0.sqlite", "alerting.sqlite", in: directory)
    let marker = directory.appendingPathComponent("notified")
    let (killed, _) = try Tool.start(
      audit("alerting.sqlite", ["--notify-command", "touch notified; sleep 60"]), in: directory,
      environment: server.environment)
    defer { Tool.stop(killed) }
    var waited = 0
    while !FileManager.default.fileExists(atPath: marker.path) && waited < 60_000 {
      usleep(10_000)
      waited += 10
    }
    #expect(FileManager.default.fileExists(atPath: marker.path), "the notify command never ran")
    kill(killed.processIdentifier, SIGKILL)
    killed.waitUntilExit()
    let rerun = try Tool.run(
      audit("alerting.sqlite", ["--json"]), in: directory, environment: server.environment)
    #expect(rerun.status == 1, "\(rerun.standardError)")
    #expect(try Self.told(rerun.standardOutput) == expected)
    let runs = try Tool.run(["runs", "--db", "alerting.sqlite", "--json"], in: directory)
    #expect(runs.standardOutput.contains("\"status\": \"interrupted\""), "\(runs.standardOutput)")

    // Killed at timed moments once the refresh is done (the report is being written, or the
    // headline printed): whatever the moment, unless the run ended first, the rerun alerts
    // the same.
    var landed = 0
    for delay in [400, 800, 1100, 1400] {
      try Self.copy("night0.sqlite", "timed.sqlite", in: directory)
      let (timed, _) = try Tool.start(
        audit("timed.sqlite"), in: directory, environment: server.environment)
      defer { Tool.stop(timed) }
      usleep(useconds_t(delay * 1000))
      kill(timed.processIdentifier, SIGKILL)
      timed.waitUntilExit()
      guard timed.terminationReason == .uncaughtSignal else { continue }
      // A kill that landed after the run ended (its alert was told) is not an interruption.
      guard try Self.newestStatus(in: "timed.sqlite", directory: directory) != "complete" else {
        continue
      }
      landed += 1
      let again = try Tool.run(
        audit("timed.sqlite", ["--json"]), in: directory, environment: server.environment)
      #expect(again.status == 1, "after a kill at \(delay) ms: \(again.standardError)")
      #expect(try Self.told(again.standardOutput) == expected, "after a kill at \(delay) ms")
    }
    print("interrupted audits: \(landed) timed kills landed before the run ended")
  }
}
