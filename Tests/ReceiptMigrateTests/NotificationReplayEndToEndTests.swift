import ApplesLibrary
import Foundation
import HTTPServer
import Synchronization
import TestDirectories
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `receipt-migrate notifications replay` as a team runs it after an audit night: the built tool
/// sends the notifications Apple never delivered to a loopback receiver — the project's own
/// HTTPServer, playing the team's endpoint — which refuses some (4xx, 5xx) and never answers
/// one while the tool is killed with SIGKILL.
///
/// Independent judge: every request the receiver got is judged by Apple's official Python
/// library (`SignedDataVerifier.verify_and_decode_notification`, in `.venv-conformance/`) and
/// Python's `json` module: a POST of `{"signedPayload": …}` as `application/json`, signed under
/// the simulated world's root, for the notification Apple's verifier names. Which notifications
/// were lost comes from the audit's own `lost-notifications.csv` (our code); the receiver and
/// the exit codes are our own code too. Without Apple's library the test is skipped, loudly.
@Suite("receipt-migrate notifications replay, end to end")
struct NotificationReplayEndToEndTests {
  /// The team's endpoint: records every request and answers from a script.
  final class Receiver: Sendable {
    struct Request: Sendable {
      var method: String
      var path: String
      var contentType: String
      var body: [UInt8]
    }

    /// Every request so far, and what to answer next: a status for each next request (200
    /// once the list is used up); 0 holds the answer back until the server stops.
    final class Log: Sendable {
      let state = Mutex<(requests: [Request], script: [Int])>(([], []))
    }

    private let log: Log
    let server: HTTPServer

    init() throws {
      let log = Log()
      self.log = log
      server = try HTTPServer.start { request in
        let status = log.state.withLock { state -> Int in
          state.requests.append(
            Request(
              method: request.method.rawValue, path: request.path,
              contentType: request.headers["Content-Type"] ?? "", body: request.body))
          return state.script.isEmpty ? 200 : state.script.removeFirst()
        }
        guard status != 0 else { return HTTPResponse(status: .ok, delay: .seconds(120)) }
        return .text(status < 300 ? "ok" : "not now", status: HTTPStatus(code: status))
      }
    }

    var url: String { "http://127.0.0.1:\(server.port)/apple/notifications" }

    /// Sets how the next requests are answered.
    func answer(_ statuses: [Int]) { log.state.withLock { $0.script = statuses } }

    var requests: [Request] { log.state.withLock { $0.requests } }

    /// Waits until `count` requests have arrived in all.
    func waitForRequests(_ count: Int) async throws {
      let deadline = ContinuousClock.now + .seconds(120)
      while requests.count < count {
        guard ContinuousClock.now < deadline else {
          throw Failure("only \(requests.count) of \(count) requests arrived")
        }
        try await Task.sleep(for: .milliseconds(10))
      }
    }

    func stop() { server.stop(gracePeriod: .milliseconds(200)) }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// A lost notification as the audit's lost-notifications.csv lists it.
  struct Lost: Equatable {
    var uuid: String
    var signedAt: String
  }

  /// The audit's lost notifications, in the order they were signed (none of the fields holds a
  /// comma: ids, instants, types and base64url).
  static func lost(in report: URL) throws -> [Lost] {
    let text = try String(
      contentsOf: report.appendingPathComponent("lost-notifications.csv"), encoding: .utf8)
    return text.split(separator: "\r\n").dropFirst().map { line in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      return Lost(uuid: fields[0], signedAt: fields[4])
    }
  }

  /// Apple's verdict on each request: the notification's UUID, or nil when refused.
  static func judge(_ requests: [Receiver.Request], world: URL) throws -> [String?] {
    let python = try #require(ApplesPythonLibrary.python)
    let config: [String: Any] = [
      "world_path": world.appendingPathComponent("world.json").path,
      "root_pem_path": world.appendingPathComponent("signing/root.pem").path,
      "requests": requests.map {
        [
          "method": $0.method, "path": $0.path, "content_type": $0.contentType,
          "body": String(decoding: $0.body, as: UTF8.self),
        ]
      },
    ]
    let configPath = world.deletingLastPathComponent().appendingPathComponent("judge.json")
    try JSONSerialization.data(withJSONObject: config).write(to: configPath)
    let script = ApplesPythonLibrary.root.appendingPathComponent(
      "Tests/ReceiptMigrateTests/verify_replayed_notifications.py")
    let outcome = try ApplesPythonLibrary.run(python, [script.path, configPath.path])
    #expect(outcome.status == 0, "\(outcome.output)")
    let result = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any],
      "\(outcome.output)")
    let failures = result["failures"] as? [String] ?? ["no failures list"]
    #expect(failures.isEmpty, "\(failures)")
    let notifications = result["notifications"] as? [Any] ?? []
    return notifications.map { ($0 as? [String: Any])?["uuid"] as? String }
  }

  @Test(
    "lost notifications reach a loopback receiver as Apple sends them; a rerun after kill -9 sends nothing twice; 4xx and 5xx are journaled and sent again",
    .enabled(if: ApplesPythonLibrary.python != nil, "\(ApplesPythonLibrary.missingMessage)"),
    .timeLimit(.minutes(5)))
  func replay() async throws {
    let directory = try TemporaryDirectory.make(prefix: "replay")
    defer { TemporaryDirectory.remove(directory) }
    // A month of nights in one audit: Apple fails to deliver a few notifications. Production
    // retries a failed delivery for about six and a half days, so only the ones whose last
    // attempt failed before the audit's clock are lost; 600 accounts give seven of them.
    let generated = try await Tool.complete(
      [
        "simulator", "generate", "--accounts", "600", "--seed", "31", "--days-after", "30",
        "--out", "world",
      ], in: directory)
    #expect(generated.status == 0, "\(generated.standardError)")
    let migrate = try await Tool.complete(
      ["migrate", "--world", "world", "--db", "store.sqlite", "--reports", "r"], in: directory)
    #expect(migrate.status == 0, "\(migrate.standardError)")
    let audit = try await Tool.complete(
      [
        "audit", "--world", "world", "--clock", "2025-12-01T00:00:00Z", "--db", "store.sqlite",
        "--reports", "r",
      ], in: directory)
    #expect(audit.status == 0, "\(audit.standardError)")
    let report = directory.appendingPathComponent("r/latest").resolvingSymlinksInPath()
    let runId = report.lastPathComponent
    let lost = try Self.lost(in: report)
    #expect(lost.count >= 6, "the world lost only \(lost.count) notifications")
    guard lost.count >= 6 else { return }
    #expect(audit.standardOutput.contains("notifications replay --to URL --run \(runId)"))

    let receiver = try Receiver()
    defer { receiver.stop() }
    func replay(_ extra: [String] = []) async throws -> Tool.Result {
      try await Tool.complete(
        ["notifications", "replay", "--to", receiver.url, "--db", "store.sqlite", "--rate", "50"]
          + extra, in: directory)
    }

    // 1. Killed with SIGKILL while the receiver holds back its answer to the third.
    receiver.answer([200, 200, 0])
    let (killed, _) = try Tool.start(
      ["notifications", "replay", "--to", receiver.url, "--db", "store.sqlite", "--rate", "50"],
      in: directory)
    defer { Tool.stop(killed) }
    try await receiver.waitForRequests(3)
    kill(killed.processIdentifier, SIGKILL)
    killed.waitUntilExit()
    #expect(killed.terminationReason == .uncaughtSignal)
    let firstRun = receiver.requests.count
    #expect(firstRun == 3)

    // 2. The rerun: nothing sent twice. The third is in doubt and held back; the fourth is
    //    refused with a 500 and the fifth with a 400; the rest are accepted. Exit 4.
    receiver.answer([500, 400])
    let rerun = try await replay(["--run", runId])
    #expect(rerun.status == 4, "\(rerun.standardOutput)\(rerun.standardError)")
    #expect(rerun.standardOutput.contains("In doubt, not sent again: \(lost[2].uuid)"))
    #expect(rerun.standardOutput.contains("refused: HTTP 500"))
    #expect(rerun.standardOutput.contains("refused: HTTP 400"))
    let secondRun = receiver.requests.count - firstRun
    #expect(secondRun == lost.count - 3)

    // The journal, as a dry run reads it: where each notification stands now.
    let plan = try await replay(["--dry-run"])
    #expect(plan.status == 0, "\(plan.standardError)")
    let standing = Dictionary(
      uniqueKeysWithValues: plan.standardOutput.split(separator: "\n").compactMap { line in
        lost.first { line.contains($0.uuid) }.map { ($0.uuid, String(line)) }
      })
    #expect(standing[lost[0].uuid]?.contains("nothing: accepted") == true)
    #expect(standing[lost[2].uuid]?.contains("hold back: in doubt since") == true)
    #expect(standing[lost[3].uuid]?.contains("send again (HTTP 500") == true)
    #expect(standing[lost[4].uuid]?.contains("send again (HTTP 400") == true)
    #expect(standing[lost[5].uuid]?.contains("nothing: accepted") == true)
    // --since selects by the signing instant.
    let since = try await replay(["--dry-run", "--since", lost[4].signedAt])
    #expect(since.standardOutput.contains("\(lost.count - 4) lost notification(s) signed since"))

    // 3. Again: only the two refused are sent. The one in doubt still holds it at exit 4.
    let third = try await replay()
    #expect(third.status == 4, "\(third.standardOutput)")
    let thirdRun = receiver.requests.count - firstRun - secondRun
    #expect(thirdRun == 2)

    // 4. The operator checked their server and asks for the one in doubt: exit 0, all accepted.
    let last = try await replay(["--resend-unconfirmed"])
    #expect(last.status == 0, "\(last.standardOutput)\(last.standardError)")
    let fourthRun = receiver.requests.count - firstRun - secondRun - thirdRun
    #expect(fourthRun == 1)
    let nothingLeft = try await replay()
    #expect(nothingLeft.status == 0)
    #expect(receiver.requests.count == firstRun + secondRun + thirdRun + fourthRun)

    // Apple's library on every request: a notification of the store's, as Apple signed it.
    let world = directory.appendingPathComponent("world")
    let judged = try Self.judge(receiver.requests, world: world)
    let uuids = lost.map(\.uuid)
    #expect(judged.allSatisfy { $0.map(uuids.contains) ?? false }, "\(judged)")
    let runs = [
      Array(judged[0..<firstRun]), Array(judged[firstRun..<(firstRun + secondRun)]),
      Array(judged[(firstRun + secondRun)..<(firstRun + secondRun + thirdRun)]),
      Array(judged[(firstRun + secondRun + thirdRun)...]),
    ]
    // Each run sends in the order the notifications were signed.
    for sent in runs {
      let positions = sent.compactMap { $0.flatMap(uuids.firstIndex(of:)) }
      #expect(positions == positions.sorted(), "sent out of order: \(sent)")
    }
    #expect(runs[0] == uuids.prefix(3).map { $0 })
    #expect(runs[1] == uuids.dropFirst(3).map { $0 }, "the rerun sent something twice")
    #expect(runs[2] == [uuids[3], uuids[4]])
    #expect(runs[3] == [uuids[2]])
    // Every notification reached the endpoint; only those refused or in doubt went twice.
    #expect(Set(judged.compactMap { $0 }) == Set(uuids))

    // The reports and explain name the command, and explain lists the account's lost ones.
    let markdown = try String(
      contentsOf: report.appendingPathComponent("summary.md"), encoding: .utf8)
    #expect(markdown.contains("`receipt-migrate notifications replay --to URL --run \(runId)`"))
    let html = try String(contentsOf: report.appendingPathComponent("report.html"), encoding: .utf8)
    #expect(html.contains("receipt-migrate notifications replay --to URL --run \(runId)"))
  }

  @Test("a URL that is not http or https is a usage error; an unknown run a configuration error")
  func refusals() async throws {
    let directory = try TemporaryDirectory.make(prefix: "replay-refusals")
    defer { TemporaryDirectory.remove(directory) }
    let ftp = try await Tool.complete(
      ["notifications", "replay", "--to", "ftp://example.com/x", "--db", "store.sqlite"],
      in: directory)
    #expect(ftp.status == 2, "\(ftp.standardError)")
    #expect(ftp.standardError.contains("must be https (or http)"))
    let both = try await Tool.complete(
      [
        "notifications", "replay", "--to", "https://example.com/x", "--run", "a", "--since",
        "2025-01-01",
      ], in: directory)
    #expect(both.status == 2)
    // A store that exists but has no such run.
    let generated = try await Tool.complete(
      ["simulator", "generate", "--accounts", "5", "--seed", "2", "--out", "world"], in: directory)
    #expect(generated.status == 0)
    let migrate = try await Tool.complete(
      ["migrate", "--world", "world", "--db", "store.sqlite", "--reports", "r"], in: directory)
    #expect(migrate.status == 0, "\(migrate.standardError)")
    let unknown = try await Tool.complete(
      [
        "notifications", "replay", "--to", "https://example.com/x", "--run", "no-such-run",
        "--db", "store.sqlite",
      ], in: directory)
    #expect(unknown.status == 3, "\(unknown.standardError)")
    #expect(unknown.standardError.contains("has no run with that id"))
    // Nothing lost: nothing to send, exit 0, and no request made.
    let nothing = try await Tool.complete(
      ["notifications", "replay", "--to", "https://127.0.0.1:9/x", "--db", "store.sqlite"],
      in: directory)
    #expect(nothing.status == 0, "\(nothing.standardOutput)\(nothing.standardError)")
    #expect(nothing.standardOutput.contains("Sent: 0"))
  }
}
