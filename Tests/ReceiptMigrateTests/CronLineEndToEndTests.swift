import Foundation
import TestDirectories
import Testing

/// README's crontab line, run as cron runs it: the binary installed by `Scripts/install` into a
/// scratch home, the credentials in the configuration file at the tool's default path, and the
/// line itself — read from README.md, not copied here — under `/usr/bin/env -i` with cron's
/// `PATH`. A clean night prints nothing (so cron mails nothing); a night that crosses the
/// stored `--fail-on` prints the headline and exits 1; wrong credentials exit 3 and say which
/// setting to check.
///
/// Evidence: our tool against our simulator (`simulator serve`, on loopback, at each night's
/// clock; its key is the one the world was generated with), judged by the exit codes and
/// output README documents and by the team table the simulator's oracle writes for the night.
/// What cron itself adds (the schedule, mailing the output) is not exercised.
@Suite("receipt-migrate from cron, end to end", .timeLimit(.minutes(3)))
struct CronLineEndToEndTests {
  static let repository = repositoryLegacy.deletingLastPathComponent()

  /// The command of README's crontab line (after its five schedule fields).
  static func documentedLine() throws -> String {
    let readme = try String(
      contentsOf: repository.appendingPathComponent("README.md"), encoding: .utf8)
    let line = try #require(
      readme.split(separator: "\n").first { $0.hasPrefix("0 3 * * *") },
      "README.md has no crontab line starting with \"0 3 * * *\"")
    return String(line.dropFirst("0 3 * * *".count)).trimmingCharacters(in: .whitespaces)
  }

  /// Writes the configuration file the tool reads by default, from `simulator serve`'s client
  /// variables, as an operator would from App Store Connect's values.
  static func writeConfiguration(
    _ environment: [String: String], in folder: URL, keyId: String? = nil
  ) throws {
    let members = [
      "ASC_ISSUER_ID": "issuer_id", "ASC_KEY_ID": "key_id",
      "ASC_PRIVATE_KEY_PATH": "private_key_path", "APP_BUNDLE_ID": "bundle_id",
      "APP_APPLE_ID": "app_apple_id", "APP_STORE_ROOT_CERTIFICATES": "root_certificates",
      "APP_STORE_PRODUCTION_URL": "production_url", "APP_STORE_SANDBOX_URL": "sandbox_url",
      "APP_STORE_CLOCK": "clock",
    ]
    var configuration: [String: Any] = [:]
    for (variable, member) in members {
      guard let value = environment[variable] else {
        throw AuditCommandEndToEndTests.Failure("serve gave no \(variable)")
      }
      configuration[member] = value
    }
    if let keyId { configuration["key_id"] = keyId }
    let directory = folder.appendingPathComponent(".receipt-migrate")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let data = try JSONSerialization.data(
      withJSONObject: configuration, options: [.prettyPrinted, .sortedKeys])
    let file = directory.appendingPathComponent("config.json")
    try data.write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
  }

  /// What stays of a night's output once the notice that the simulator's root is trusted is set
  /// aside: against Apple's root that notice is never printed.
  static func mailed(_ result: Tool.Result) -> String {
    (result.standardOutput + result.standardError).split(separator: "\n")
      .filter { !$0.hasPrefix("notice: trusting a root that is not Apple Root CA") }
      .joined(separator: "\n")
  }

  @Test("README's crontab line under env -i: installed binary, configuration file, --quiet")
  func cronLine() throws {
    let line = try Self.documentedLine()
    let home = try TemporaryDirectory.make(prefix: "cron-home")
    defer { TemporaryDirectory.remove(home) }
    let work = home.appendingPathComponent("receipt-audit")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let generated = try Tool.run(
      [
        "simulator", "generate", "--accounts", "60", "--seed", "43", "--days-after", "3", "--out",
        "world",
      ], in: work)
    try #require(generated.status == 0, "\(generated.standardError)")
    func serve(_ night: Int) throws -> AuditCommandEndToEndTests.Server {
      try AuditCommandEndToEndTests.Server(
        world: "world", clock: "2025-11-0\(night + 1)T00:00:00Z", latency: nil, in: work)
    }
    func table(at night: Int) throws {
      let written = try Tool.run(
        [
          "simulator", "expected", "--world", "world", "--at", "2025-11-0\(night + 1)T00:00:00Z",
          "--table", "table.csv", "--out", "expected.csv",
        ], in: work)
      try #require(written.status == 0, "\(written.standardError)")
    }

    // Install: Scripts/install with the test's build, into $HOME/.local/bin.
    let installed = try CleanEnvironment.run([
      "/usr/bin/env", "-i", "HOME=\(home.path)", "PATH=\(CleanEnvironment.cronPath)",
      "RECEIPT_MIGRATE_BINARY=\(Tool.executable.path)", "/bin/bash",
      Self.repository.appendingPathComponent("Scripts/install").path,
    ])
    #expect(installed.status == 0, "\(installed.standardError)")
    let binary = home.appendingPathComponent(".local/bin/receipt-migrate").path
    #expect(installed.standardOutput.contains("Installed receipt-migrate"))
    #expect(installed.standardOutput.contains(binary), "\(installed.standardOutput)")
    #expect(FileManager.default.isExecutableFile(atPath: binary))

    // Night 0: the migration with the inputs the store then remembers (its recipe).
    try table(at: 0)
    let first = try serve(0)
    defer { first.stop() }
    try Self.writeConfiguration(first.environment, in: work)
    let migration = try Tool.run(
      [
        "migrate", "--legacy", "world/receipts.ndjson", "--catalog", "world/products.csv",
        "--current-entitlements", "table.csv", "--receipt-root", "world/signing/root.pem",
        "--fail-on", "new:table:any",
      ], in: work)
    first.stop()
    // On the first run every finding is new.
    #expect(migration.status == 1, "\(migration.standardError)")
    #expect(!migration.standardOutput.contains("SIMULATED"))

    // Night 1, a clean night: nothing to mail.
    try table(at: 1)
    let second = try serve(1)
    defer { second.stop() }
    try Self.writeConfiguration(second.environment, in: work)
    let clean = try CleanEnvironment.cron(line, home: home)
    second.stop()
    #expect(clean.status == 0, "\(clean.standardOutput)\(clean.standardError)")
    #expect(clean.standardOutput.isEmpty, "\(clean.standardOutput)")
    #expect(Self.mailed(clean).isEmpty, "\(Self.mailed(clean))")

    // Night 2: the team's table wrongly expires an entitlement it matched the night before.
    try table(at: 2)
    let matched = try String(
      contentsOf: work.appendingPathComponent("Reports/latest/discrepancies.ndjson"),
      encoding: .utf8
    ).split(separator: "\n").compactMap { line -> String? in
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return object?["table_category"] as? String == "match"
        ? object?["account_id"] as? String : nil
    }
    let tablePath = work.appendingPathComponent("table.csv")
    var rows = try String(contentsOf: tablePath, encoding: .utf8).components(separatedBy: "\n")
    let flipped = try #require(
      rows.firstIndex {
        let fields = $0.split(separator: ",", omittingEmptySubsequences: false)
        return fields.count > 2 && matched.contains(String(fields[0])) && fields[2] == "active"
      })
    let account = String(rows[flipped].split(separator: ",")[0])
    rows[flipped] = rows[flipped].replacingOccurrences(of: ",active,", with: ",expired,")
    try rows.joined(separator: "\n").write(to: tablePath, atomically: true, encoding: .utf8)
    let third = try serve(2)
    defer { third.stop() }

    // Wrong credentials first: exit 3, and the mail names the settings.
    try Self.writeConfiguration(third.environment, in: work, keyId: "WRONGKEY01")
    let refused = try CleanEnvironment.cron(line, home: home)
    #expect(refused.status == 3, "\(refused.standardError)")
    #expect(Self.mailed(refused).contains("ASC_KEY_ID"), "\(Self.mailed(refused))")

    try Self.writeConfiguration(third.environment, in: work)
    let crossed = try CleanEnvironment.cron(line, home: home)
    third.stop()
    #expect(crossed.status == 1, "\(crossed.standardError)")
    #expect(
      crossed.standardOutput.contains("--fail-on new:table:any crossed (exit 1)"),
      "\(crossed.standardOutput)")
    #expect(
      crossed.standardOutput.contains("your table: 1 new finding(s)"),
      "\(account): \(crossed.standardOutput)")

    // The night's report charts the nights before it, each linked to a report that exists.
    let latest = work.appendingPathComponent("Reports/latest").resolvingSymlinksInPath()
    let html = try String(
      contentsOf: latest.appendingPathComponent("report.html"), encoding: .utf8)
    let trend = try #require(html.range(of: "<table id=\"trend-table\">"))
    let links = html[trend.lowerBound...].components(separatedBy: "<a href=\"").dropFirst()
      .prefix { $0.hasPrefix("../") }.map { String($0.prefix { $0 != "\"" }) }
    #expect(links.count == 2, "the migration and night 1: \(links)")
    for link in links {
      #expect(
        FileManager.default.fileExists(atPath: latest.appendingPathComponent(link).path), "\(link)")
    }
  }
}
