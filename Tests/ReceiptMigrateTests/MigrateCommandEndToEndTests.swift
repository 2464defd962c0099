import Foundation
import TestDirectories
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `receipt-migrate migrate` and its stage commands, run the way a user runs them: the built
/// executable, a working directory of its own, the embedded simulator on loopback.
@Suite("receipt-migrate migrate, end to end")
struct MigrateCommandEndToEndTests {
  /// A working directory holding a generated world in `world/`; pair it with
  /// `defer { TemporaryDirectory.remove(directory) }`.
  func worldDirectory(accounts: Int = 40, seed: Int = 5) throws -> URL {
    try TemporaryDirectory.make(prefix: "migrate") { directory in
      let generated = try Tool.run(
        [
          "simulator", "generate", "--accounts", "\(accounts)", "--seed", "\(seed)", "--out",
          "world",
        ],
        in: directory)
      try #require(generated.status == 0, "\(generated.standardError)")
    }
  }

  /// `expected.csv` as account → "category/table category".
  func expected(_ path: URL) throws -> [String: String] {
    try rows(path).mapValues { "\($0[1])/\($0[2])" }
  }

  /// `discrepancies.csv` as account → "category/table category".
  func found(_ path: URL) throws -> [String: String] {
    try rows(path).mapValues { "\($0[1])/\($0[5])" }
  }

  /// A CSV file's rows (RFC 4180 quoting, no line breaks inside fields), by first column.
  func rows(_ path: URL) throws -> [String: [String]] {
    var rows: [String: [String]] = [:]
    // RFC 4180 ends lines with CRLF, which Swift reads as one Character.
    let text = try String(contentsOf: path, encoding: .utf8)
    for line in text.split(whereSeparator: \.isNewline).dropFirst() {
      var fields: [String] = [""]
      var quoted = false
      var previous: Character?
      for character in line {
        if character == "\"" {
          if quoted {
            quoted = false
          } else {
            if previous == "\"" { fields[fields.count - 1].append("\"") }
            quoted = true
          }
        } else if character == "," && !quoted {
          fields.append("")
        } else {
          fields[fields.count - 1].append(character)
        }
        previous = character
      }
      rows[fields[0]] = fields
    }
    return rows
  }

  @Test("the README's first command: a full report from the sample, plainly simulated")
  func readmeCommand() throws {
    let directory = try IngestCommandEndToEndTests().workingCopy()
    defer { TemporaryDirectory.remove(directory) }
    let result = try Tool.run(["migrate"], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardError.contains("using the SIMULATED App Store"))
    #expect(result.standardOutput.hasPrefix("SIMULATED App Store"))
    #expect(result.standardOutput.contains("300 accounts as of 2025-11-01T00:00:00Z"))
    #expect(result.standardOutput.contains("Report: Reports/"))
    let latest = directory.appendingPathComponent("Reports/latest")
    for file in [
      "report.html", "summary.md", "discrepancies.csv", "discrepancies.ndjson", "run.json",
    ] {
      #expect(FileManager.default.fileExists(atPath: latest.appendingPathComponent(file).path))
    }
    let got = try found(latest.appendingPathComponent("discrepancies.csv"))
    let want = try expected(directory.appendingPathComponent("Legacy/sample/expected.csv"))
    let wrong = want.keys.sorted().filter { got[$0] != want[$0] }
    #expect(
      got.count == want.count && wrong.isEmpty,
      "\(wrong.map { "\($0): \(got[$0] ?? "-") expected \(want[$0] ?? "-")" })")
    let summary = try String(
      contentsOf: latest.appendingPathComponent("summary.md"), encoding: .utf8)
    #expect(summary.contains("Simulated App Store"))
  }

  @Test("without a catalogue, products are learnt from the App Store: every category exact")
  func withoutCatalogue() throws {
    let directory = try IngestCommandEndToEndTests().workingCopy()
    defer { TemporaryDirectory.remove(directory) }
    // The default inputs named explicitly, but no --catalog: the team table's rows must still
    // be keyed like the App Store's (by subscription group), from Apple's own signed types.
    let result = try Tool.run(
      [
        "migrate", "--legacy", "Legacy/sample/receipts.ndjson", "--current-entitlements",
        "Legacy/sample/current-entitlements.csv", "--receipt-root",
        "Legacy/sample/signing/root.pem",
      ], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    let got = try found(directory.appendingPathComponent("Reports/latest/discrepancies.csv"))
    let want = try expected(directory.appendingPathComponent("Legacy/sample/expected.csv"))
    let wrong = want.keys.sorted().filter { got[$0] != want[$0] }
    // Non-renewing subscriptions last what the catalogue says, which the App Store does not
    // carry: those accounts are the only ones allowed to differ, as duration_unknown.
    let unexplained = wrong.filter { !(got[$0] ?? "").contains("duration_unknown") }
    #expect(
      got.count == want.count && unexplained.isEmpty,
      "\(unexplained.map { "\($0): \(got[$0] ?? "-") expected \(want[$0] ?? "-")" })")
  }

  @Test(
    "killed with SIGKILL at any moment and run again, it ends as an uninterrupted run",
    arguments: [150, 500, 1_200])
  func killAndResume(afterMilliseconds delay: Int) throws {
    let directory = try worldDirectory(accounts: 60, seed: 6)
    defer { TemporaryDirectory.remove(directory) }
    let arguments = ["migrate", "--world", "world", "--reports", "reports"]
    let reference = try Tool.run(arguments + ["--db", "reference.sqlite"], in: directory)
    try #require(reference.status == 0, "\(reference.standardError)")
    let referenceReport = try Data(
      contentsOf: directory.appendingPathComponent("reports/latest/discrepancies.csv"))

    let killed = Process()
    killed.executableURL = Tool.executable
    killed.arguments = arguments + ["--db", "resumed.sqlite"]
    killed.currentDirectoryURL = directory
    killed.environment = Tool.hermeticEnvironment
    killed.standardOutput = FileHandle.nullDevice
    killed.standardError = FileHandle.nullDevice
    try killed.run()
    // The moment of the kill is the test's parameter, not a wait for something to happen.
    usleep(useconds_t(delay * 1_000))
    kill(killed.processIdentifier, SIGKILL)
    killed.waitUntilExit()

    let resumed = try Tool.run(arguments + ["--db", "resumed.sqlite"], in: directory)
    #expect(resumed.status == 0, "\(resumed.standardError)")
    let resumedReport = try Data(
      contentsOf: directory.appendingPathComponent("reports/latest/discrepancies.csv"))
    #expect(resumedReport == referenceReport)
  }

  @Test("--fail-on exits 1 past its threshold; report and explain work from the store")
  func failOnReportExplain() throws {
    // A world that holds accounts losing access (the `#require` below checks it).
    let directory = try worldDirectory(seed: 9)
    defer { TemporaryDirectory.remove(directory) }
    let expected = try expected(directory.appendingPathComponent("world/expected.csv"))
    let losing = ["refund_missed", "revoked_family", "prorated_refund", "one_time_revoked"]
    let losers = expected.values.filter { losing.contains(String($0.split(separator: "/")[0])) }
    try #require(!losers.isEmpty, "the world must hold accounts that lose access")

    let crossed = try Tool.run(
      ["migrate", "--world", "world", "--fail-on", "loses_access"], in: directory)
    #expect(crossed.status == 1, "\(crossed.standardError)")
    #expect(crossed.standardOutput.contains("Threshold crossed: --fail-on loses_access"))
    let within = try Tool.run(
      [
        "migrate", "--world", "world", "--fail-on", "loses_access", "--fail-threshold",
        "\(losers.count)",
      ], in: directory)
    #expect(within.status == 0, "\(within.standardError)")
    #expect(within.standardOutput.contains("Requests: none sent by this run."))

    // report --run writes the same bytes again. (The second run of a store that refreshed is
    // titled as an audit: "Audit run <id>: …".)
    let runId = try #require(
      within.standardOutput.split(separator: "\n").first {
        $0.hasPrefix("Run ") || $0.hasPrefix("Audit run ")
      }?.split(separator: ":")[0].split(separator: " ").last)
    let folder = directory.appendingPathComponent("Reports/\(runId)")
    let before = try Data(contentsOf: folder.appendingPathComponent("report.html"))
    try FileManager.default.removeItem(at: folder)
    let report = try Tool.run(["report", "--run", String(runId)], in: directory)
    #expect(report.status == 0, "\(report.standardError)")
    #expect(try Data(contentsOf: folder.appendingPathComponent("report.html")) == before)

    let account = try #require(expected.keys.sorted().first)
    let explain = try Tool.run(["explain", account], in: directory)
    #expect(explain.status == 0, "\(explain.standardError)")
    #expect(explain.standardOutput.hasPrefix("Account \(account)\n"))
    #expect(try Tool.run(["explain", "no-such-account"], in: directory).status == 4)
  }

  @Test("--redact pseudonymises every account id, with a salt kept beside the store")
  func redact() throws {
    let directory = try worldDirectory(accounts: 20, seed: 8)
    defer { TemporaryDirectory.remove(directory) }
    let result = try Tool.run(["migrate", "--world", "world", "--redact"], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    let csv = try String(
      contentsOf: directory.appendingPathComponent("Reports/latest/discrepancies.csv"),
      encoding: .utf8)
    for account in try expected(directory.appendingPathComponent("world/expected.csv")).keys {
      #expect(!csv.contains(account), "\(account) appears in a redacted report")
    }
    let salt = directory.appendingPathComponent(".receipt-migrate/simulated.sqlite.redaction-salt")
    let mode = try FileManager.default.attributesOfItem(atPath: salt.path)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o600)
  }

  @Test("--json on compare, explain and backfill prints the report's schemas and parses")
  func jsonOutputs() throws {
    let directory = try worldDirectory(accounts: 12, seed: 11)
    defer { TemporaryDirectory.remove(directory) }
    let migrated = try Tool.run(["migrate", "--world", "world", "--db", "s.sqlite"], in: directory)
    #expect(migrated.status == 0, "\(migrated.standardError)")
    func object(_ arguments: [String]) throws -> [String: Any] {
      let result = try Tool.run(arguments + ["--db", "s.sqlite", "--json"], in: directory)
      #expect(result.status == 0, "\(arguments): \(result.standardError)")
      let parsed = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
      return try #require(parsed as? [String: Any], "\(result.standardOutput)")
    }
    let run = try object(["compare"])
    #expect(run["schema_version"] as? Int == 1)
    #expect((run["run_id"] as? String)?.isEmpty == false)
    let backfill = try object(["backfill", "--world", "world"])
    #expect((backfill["ids"] as? [String: Any])?["failed"] as? Int == 0)
    let accounts = try String(
      contentsOfFile: directory.appendingPathComponent("world/receipts.ndjson").path,
      encoding: .utf8)
    let first = try #require(
      accounts.split(separator: "\n").first.flatMap {
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }?["account_id"] as? String)
    let explained = try object(["explain", first])
    #expect(explained["account_id"] as? String == first)
    #expect(explained["category"] is String)
  }

  @Test("configuration problems exit 3, usage problems 2, and stores never mix App Stores")
  func configurationErrors() throws {
    let directory = try worldDirectory(accounts: 12, seed: 9)
    defer { TemporaryDirectory.remove(directory) }
    let partial = try Tool.run(
      ["migrate", "--world", "world"], in: directory, environment: ["ASC_ISSUER_ID": "x"])
    #expect(partial.status == 3)
    #expect(partial.standardError.contains("ASC_KEY_ID"), "\(partial.standardError)")

    let noLegacy = try Tool.run(
      ["migrate"], in: directory,
      environment: [
        "ASC_ISSUER_ID": "3c5b1f0e-6a2d-4e8b-9f71-0d4c2b8a6e13", "ASC_KEY_ID": "SIMKEY0001",
        "ASC_PRIVATE_KEY_PATH": "world/signing/api-key.p8", "APP_BUNDLE_ID": "com.example.studio",
        "APP_STORE_ROOT_CERTIFICATES": "world/signing/root.pem", "APP_APPLE_ID": "1234567890",
      ])
    #expect(noLegacy.status == 2, "\(noLegacy.standardError)")
    #expect(noLegacy.standardError.contains("--legacy is required"))

    #expect(try Tool.run(["migrate", "--concurrency", "0"], in: directory).status == 2)
    #expect(try Tool.run(["migrate", "--fail-on", "nonsense"], in: directory).status == 2)

    // One world's data, then another world into the same store: refused.
    let first = try Tool.run(["migrate", "--world", "world", "--db", "one.sqlite"], in: directory)
    #expect(first.status == 0, "\(first.standardError)")
    let other = try Tool.run(
      ["simulator", "generate", "--accounts", "12", "--seed", "10", "--out", "other"],
      in: directory)
    try #require(other.status == 0)
    let mixed = try Tool.run(["migrate", "--world", "other", "--db", "one.sqlite"], in: directory)
    #expect(mixed.status == 3)
    #expect(mixed.standardError.contains("holds data from"), "\(mixed.standardError)")
    // Refused before anything was written: the first world's store is as it was.
    let again = try Tool.run(["migrate", "--world", "world", "--db", "one.sqlite"], in: directory)
    #expect(again.status == 0, "\(again.standardOutput)\(again.standardError)")
    #expect(again.standardOutput.contains("Requests: none sent by this run."))
  }

  @Test("with credentials it talks to the configured App Store as to Apple, and names what it was")
  func configuredAppStore() throws {
    let directory = try worldDirectory(accounts: 30, seed: 12)
    defer { TemporaryDirectory.remove(directory) }
    let server = try AuditCommandEndToEndTests.Server(
      world: "world", clock: nil, latency: nil, in: directory, extra: ["--log", "off"])
    defer { server.stop() }
    // The banner's `export` line: credentials, trust and the two loopback URLs.
    let environment = server.environment

    let result = try Tool.run(
      [
        "migrate", "--legacy", "world/receipts.ndjson", "--catalog", "world/products.csv",
        "--current-entitlements", "world/current-entitlements.csv", "--as-of",
        "2025-11-01T00:00:00Z", "--receipt-root", "world/signing/root.pem",
      ], in: directory, environment: environment)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(!result.standardOutput.contains("SIMULATED"))
    // Treated as Apple (credentials, no SIMULATED banner), but named for what it is.
    #expect(result.standardOutput.contains("App Store: App Store Server API, NOT Apple: at http"))
    #expect(
      FileManager.default.fileExists(
        atPath: directory.appendingPathComponent(".receipt-migrate/state.sqlite").path))
    let run = try String(
      contentsOf: directory.appendingPathComponent("Reports/latest/run.json"), encoding: .utf8)
    #expect(run.contains("\"simulated\": false"))
    let got = try found(directory.appendingPathComponent("Reports/latest/discrepancies.csv"))
    #expect(got == (try expected(directory.appendingPathComponent("world/expected.csv"))))
  }
}
