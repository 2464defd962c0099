import Chronology
import Foundation
import HTTPServer
import MigrationPipeline
import MigrationReports
import Synchronization
import Testing

/// How an unattended run reaches a person: the headline to a loopback webhook and to a notify
/// command, secret-free and bounded in time; the metrics file read by Prometheus's own parser
/// (`prometheus_client`, code nobody here wrote); command lines scrubbed.
@Suite("Alerts")
struct AlertTests {
  static let secretPayload = "eyJzZWNyZXQiOiJwYXlsb2FkIn0.c2VjcmV0.c2ln"

  /// A run that crossed `--fail-on`, with a lost notification whose payload and account must
  /// never travel in an alert.
  static func run(exitCode: Int32 = 1) -> RecordedRun {
    var summary = RunSummary(
      runId: "20261127T030000Z-0001", toolVersion: "test",
      startedAt: Timestamp(millisecondsSince1970: 1_764_212_400_000),
      finishedAt: Timestamp(millisecondsSince1970: 1_764_212_460_500),
      asOf: Timestamp(millisecondsSince1970: 1_764_212_400_000),
      appStore: AppStoreSource(isSimulated: false, description: "Apple", environment: "auto"),
      inputs: RunInputs(recordsRead: 5, recordsAccepted: 5, recordsQuarantined: 0, accounts: 5),
      failOn: FailOnThreshold(expression: "new:table:loses_access", isCrossed: exitCode == 1))
    summary.command = "audit"
    summary.exitCode = exitCode
    summary.lostNotifications = 1
    summary.since = RunChangeCounts(
      previousRunId: "20261126T030000Z-0001", previousAsOf: summary.asOf,
      primary: ChangeCounts(byKind: [.newFinding: 2, .resolved: 1]),
      table: ChangeCounts(byKind: [.newFinding: 3]), newAccounts: 0)
    return RecordedRun(
      summary: summary, comparisons: [],
      lostNotifications: [
        LostNotification(
          uuid: "u-1", environment: "Production", type: "DID_RENEW", subtype: nil,
          signedDate: nil, originalTransactionId: "1000", customerKey: "Production:1000",
          accounts: ["account-secret-42"], firstAttempt: nil, lastAttempt: nil,
          reason: "TIMED_OUT", signedPayload: secretPayload)
      ])
  }

  @Test("the webhook gets the headline as JSON with a text field, and nothing secret")
  func webhook() async throws {
    let received = Mutex<[(path: String, type: String?, body: [UInt8])]>([])
    let server = try HTTPServer.start { request in
      received.withLock { $0.append((request.path, request.headers["Content-Type"], request.body)) }
      return .text("ok")
    }
    defer { server.stop() }
    let url = "http://127.0.0.1:\(server.port)/services/T000/B000/XXXXSECRET"
    let headline = RunHeadline(
      run: Self.run(), reportDirectory: "/srv/Reports/x", storePath: "/srv/state.sqlite")
    let failures = await AlertDelivery(notifyCommand: nil, webhook: url).deliver(headline)
    #expect(failures.isEmpty)
    let posts = received.withLock { $0 }
    try #require(posts.count == 1)
    #expect(posts[0].path == "/services/T000/B000/XXXXSECRET")
    #expect(posts[0].type == "application/json")
    let text = String(decoding: posts[0].body, as: UTF8.self)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(posts[0].body)) as? [String: Any])
    #expect((object["text"] as? String)?.contains("crossed (exit 1)") == true)
    #expect(object["exit_code"] as? Int == 1)
    #expect(object["outcome"] as? String == "threshold_crossed")
    #expect((object["since"] as? [String: Any])?["table_new_findings"] as? Int == 3)
    for secret in [Self.secretPayload, "account-secret-42", "XXXXSECRET", "Production:1000"] {
      #expect(!text.contains(secret), "the alert carries \(secret)")
    }
  }

  @Test("a webhook that answers 500, or no one listening: reported, never thrown, no URL token")
  func webhookFailures() async throws {
    let server = try HTTPServer.start { _ in .text("no", status: HTTPStatus(code: 500)) }
    defer { server.stop() }
    let headline = RunHeadline(run: Self.run(), reportDirectory: nil, storePath: "/s")
    let answered = await AlertDelivery(
      notifyCommand: nil, webhook: "http://127.0.0.1:\(server.port)/hook/TOKEN123"
    ).deliver(headline)
    #expect(answered.count == 1)
    #expect(answered.first?.contains("answered 500") == true)
    #expect(answered.first?.contains("TOKEN123") == false)
    let port = server.port
    server.stop()
    let refused = await AlertDelivery(
      notifyCommand: nil, webhook: "http://127.0.0.1:\(port)/hook/TOKEN123", timeout: .seconds(5)
    ).deliver(headline)
    #expect(refused.count == 1)
    #expect(refused.first?.contains("TOKEN123") == false)
  }

  @Test(
    "the notify command reads the headline on its standard input; failures and hangs are bounded")
  func notifyCommand() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notify-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("headline.json").path
    let headline = RunHeadline(run: Self.run(exitCode: 4), reportDirectory: nil, storePath: "/s")
    let ok = await AlertDelivery(notifyCommand: "cat > '\(file)'", webhook: nil).deliver(headline)
    #expect(ok.isEmpty)
    let written = try #require(FileManager.default.contents(atPath: file))
    #expect(written == Data(headline.json))
    let failed = await AlertDelivery(notifyCommand: "exit 3", webhook: nil).deliver(headline)
    #expect(failed == ["--notify-command failed: it exited with 3"])
    let started = ContinuousClock.now
    let hung = await AlertDelivery(
      notifyCommand: "sleep 30", webhook: nil, timeout: .seconds(1)
    ).deliver(headline)
    #expect(hung.first?.contains("was stopped") == true)
    #expect(ContinuousClock.now - started < .seconds(10))
  }

  @Test("command lines keep what was typed but the webhook's path and the token namespace")
  func scrubbing() {
    #expect(
      CommandLineScrubber.scrub([
        "audit", "--webhook", "https://user:pw@hooks.example.com/T/B/SECRET?x=1", "--db", "s.db",
        "--derive-tokens=6f3c1a52-9b0e-4d7a-8f21-5c4e3b2a1d09", "--quiet",
      ]) == [
        "audit", "--webhook", "https://hooks.example.com/<redacted>", "--db", "s.db",
        "--derive-tokens=<namespace>", "--quiet",
      ])
  }

  /// The Python of `.venv-conformance/` when it can import `prometheus_client`.
  static let python: String? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let candidate = root.appendingPathComponent(".venv-conformance/bin/python").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: candidate)
    process.arguments = ["-c", "import prometheus_client"]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else {
      FileHandle.standardError.write(Data(Self.missing.utf8))
      return nil
    }
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      FileHandle.standardError.write(Data(Self.missing.utf8))
      return nil
    }
    return candidate
  }()

  static let missing =
    "\n*** SKIPPED: prometheus_client is not installed in .venv-conformance/ (Scripts/test "
    + "installs it), so the metrics file was NOT checked by Prometheus's own parser ***\n\n"

  @Test(
    "the metrics file is read by prometheus_client's text-format parser, every value as written",
    .enabled(if: python != nil))
  func metricsFileParses() throws {
    let run = Self.run()
    let metrics = MetricsFile(
      summary: run.summary, statistics: run.statistics, staleAccounts: 0, exitCode: 1,
      lastSuccess: Date(timeIntervalSince1970: 1_764_126_000))
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "metrics-\(UUID().uuidString).prom"
    ).path
    try metrics.write(to: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let script = """
      import json, sys
      from prometheus_client.parser import text_string_to_metric_families
      out = {}
      for family in text_string_to_metric_families(open(sys.argv[1]).read()):
          for sample in family.samples:
              key = sample.name + json.dumps(sample.labels, sort_keys=True)
              out[key] = [family.type, sample.value]
      print(json.dumps(out))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Self.python))
    process.arguments = ["-c", script, path]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(String(decoding: output, as: UTF8.self))")
    let parsed = try #require(try JSONSerialization.jsonObject(with: output) as? [String: [Any]])
    func value(_ key: String) -> Double? { parsed[key]?[1] as? Double }
    #expect(value(#"receipt_migrate_exit_code{}"#) == 1)
    #expect(value(#"receipt_migrate_accounts{}"#) == 5)
    #expect(value(#"receipt_migrate_new_findings{"side": "table"}"#) == 3)
    #expect(value(#"receipt_migrate_resolved_findings{"side": "primary"}"#) == 1)
    #expect(value(#"receipt_migrate_lost_notifications{}"#) == 1)
    #expect(value(#"receipt_migrate_run_duration_seconds{}"#) == 60.5)
    #expect(value(#"receipt_migrate_last_success_timestamp_seconds{}"#) == 1_764_126_000)
    #expect(
      value(#"receipt_migrate_run_info{"command": "audit", "run_id": "20261127T030000Z-0001"}"#)
        == 1)
    #expect(parsed.values.allSatisfy { ($0.first as? String) == "gauge" })
  }
}
