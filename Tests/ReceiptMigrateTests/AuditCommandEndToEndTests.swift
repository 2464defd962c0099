import Foundation
import TestDirectories
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `receipt-migrate audit` as cron runs it: real processes, `simulator serve` at each night's
/// clock, and a `kill -9` in the middle of a refresh.
@Suite("receipt-migrate audit, end to end")
struct AuditCommandEndToEndTests {
  /// `simulator serve` in a child process, with its client variables and its request log.
  final class Server {
    let process = Process()
    let output = Pipe()
    var environment: [String: String] = [:]
    private var buffer = ""
    private(set) var requestLines: [String] = []

    /// Starts the server and reads its banner.
    ///
    /// - Parameters:
    ///   - world: the world folder.
    ///   - clock: the server's clock, or `nil` for the world's.
    ///   - latency: the latency to add, if any.
    ///   - directory: the working directory.
    ///   - extra: more `simulator serve` arguments (`--log off` when nothing reads the log:
    ///     an unread log fills its pipe and stalls the server).
    init(
      world: String, clock: String?, latency: String?, in directory: URL, extra: [String] = []
    ) throws {
      process.executableURL = Tool.executable
      process.arguments =
        ["simulator", "serve", "--world", world, "--rate-limit", "off"]
        + (clock.map { ["--clock", $0] } ?? []) + (latency.map { ["--latency", $0] } ?? [])
        + extra
      process.currentDirectoryURL = directory
      process.environment = Tool.hermeticEnvironment
      process.standardOutput = output
      process.standardError = Pipe()
      try process.run()
      while !buffer.contains("Serving;") {
        let chunk = output.fileHandleForReading.availableData
        guard !chunk.isEmpty else { throw Failure("serve ended before its banner: \(buffer)") }
        buffer += String(decoding: chunk, as: UTF8.self)
      }
      guard let exports = buffer.split(separator: "\n").first(where: { $0.contains("export ") })
      else { throw Failure("no export line in \(buffer)") }
      for assignment in exports.split(separator: " ").dropFirst() {
        let parts = assignment.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { environment[String(parts[0])] = String(parts[1]) }
      }
      buffer = ""
    }

    /// Reads the log until a request line contains `text`.
    func waitForRequest(containing text: String) throws {
      var checked = 0
      while !requestLines[checked...].contains(where: { $0.contains(text) }) {
        checked = requestLines.count
        try waitForRequests(1)
      }
    }

    /// Reads the log until it holds `count` more request lines than now.
    func waitForRequests(_ count: Int) throws {
      let target = requestLines.count + count
      while requestLines.count < target {
        let chunk = output.fileHandleForReading.availableData
        guard !chunk.isEmpty else { throw Failure("serve stopped logging") }
        buffer += String(decoding: chunk, as: UTF8.self)
        while let newline = buffer.firstIndex(of: "\n") {
          let line = String(buffer[..<newline])
          buffer.removeSubrange(...newline)
          if line.hasPrefix("#") { requestLines.append(line) }
        }
      }
    }

    func stop() {
      if process.isRunning { process.terminate() }
      process.waitUntilExit()
    }

    /// Stops the server and reads the rest of its log, so ``requestLines`` holds every request.
    func stopAndDrain() {
      stop()
      buffer += String(
        decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      for line in buffer.split(separator: "\n") where line.hasPrefix("#") {
        requestLines.append(String(line))
      }
      buffer = ""
    }
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// The audit's flags against a served simulator (credentials come from its export line).
  static func auditArguments(database: String, reports: String, table: String?) -> [String] {
    [
      "audit", "--db", database, "--reports", reports, "--legacy", "world/receipts.ndjson",
      "--catalog", "world/products.csv", "--receipt-root", "world/signing/root.pem",
      "--concurrency", "4",
    ] + (table.map { ["--current-entitlements", $0] } ?? [])
  }

  @Test("kill -9 in the middle of a refresh, then again: the same report as an uninterrupted night")
  func killedRefresh() throws {
    let directory = try TemporaryDirectory.make(prefix: "audit")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      [
        "simulator", "generate", "--accounts", "150", "--seed", "31", "--days-after", "4", "--out",
        "world",
      ], in: directory)
    #expect(generated.status == 0, "\(generated.standardError)")
    let night0 = "2025-11-01T00:00:00Z"
    let night3 = "2025-11-04T00:00:00Z"
    let expected = try Tool.run(
      [
        "simulator", "expected", "--world", "world", "--at", night3, "--table", "table.csv",
        "--out", "expected.csv",
      ], in: directory)
    #expect(expected.status == 0, "\(expected.standardError)")

    // Night 0: the migration, against the world served at its clock; two copies of the store.
    let first = try Server(world: "world", clock: night0, latency: nil, in: directory)
    defer { first.stop() }
    let migration = try Tool.run(
      Self.auditArguments(database: "killed.sqlite", reports: "r0", table: nil), in: directory,
      environment: first.environment)
    first.stop()
    #expect(migration.status == 0, "\(migration.standardError)")
    try FileManager.default.copyItem(
      at: directory.appendingPathComponent("killed.sqlite"),
      to: directory.appendingPathComponent("reference.sqlite"))

    // Night 3: the reference audit, uninterrupted.
    let server = try Server(world: "world", clock: night3, latency: "30ms", in: directory)
    defer { server.stop() }
    let reference = try Tool.run(
      Self.auditArguments(database: "reference.sqlite", reports: "ref", table: "table.csv"),
      in: directory, environment: server.environment)
    #expect(reference.status == 0, "\(reference.standardError)")
    try server.waitForRequests(0)

    // The same audit, killed with SIGKILL once the server has answered a few of its requests.
    for requestsBeforeKill in [3, 9] {
      let before = server.requestLines.count
      let (audit, _) = try Tool.start(
        Self.auditArguments(database: "killed.sqlite", reports: "killed", table: "table.csv"),
        in: directory, environment: server.environment)
      defer { Tool.stop(audit) }
      try server.waitForRequests(requestsBeforeKill)
      kill(audit.processIdentifier, SIGKILL)
      audit.waitUntilExit()
      #expect(audit.terminationReason == .uncaughtSignal, "the audit finished before the kill")
      #expect(server.requestLines.count - before >= requestsBeforeKill)
    }
    let resumed = try Tool.run(
      Self.auditArguments(database: "killed.sqlite", reports: "killed", table: "table.csv"),
      in: directory, environment: server.environment)
    #expect(resumed.status == 0, "\(resumed.standardError)")

    // Every account as uninterrupted, and as the oracle says; nothing left due.
    for file in ["discrepancies.csv", "discrepancies.ndjson"] {
      let mine = try Data(contentsOf: directory.appendingPathComponent("killed/latest/\(file)"))
      let theirs = try Data(contentsOf: directory.appendingPathComponent("ref/latest/\(file)"))
      #expect(mine == theirs, "\(file) differs from the uninterrupted night's")
    }
    let run = try JSONSerialization.jsonObject(
      with: Data(contentsOf: directory.appendingPathComponent("killed/latest/run.json")))
    let refresh = (run as? [String: Any])?["refresh"] as? [String: Any]
    #expect(refresh?["still_due"] as? Int == 0)
    // A served simulator is named for what it is, never "Apple".
    let source = (run as? [String: Any])?["app_store"] as? [String: Any]
    let description = source?["description"] as? String ?? ""
    #expect(description.contains("NOT Apple: at http://127.0.0.1:"), "\(description)")
    #expect(description.contains("trusting a root that is not Apple's"), "\(description)")
    let oracle = try String(
      contentsOf: directory.appendingPathComponent("expected.csv"), encoding: .utf8
    ).split(separator: "\n").dropFirst().map { line -> String in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      return "\(fields[0]),\(fields[1]),\(fields[2])"
    }
    let got = try String(
      contentsOf: directory.appendingPathComponent("killed/latest/discrepancies.ndjson"),
      encoding: .utf8
    ).split(separator: "\n").compactMap { line -> String? in
      guard
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      else { return nil }
      return "\(object["account_id"] ?? ""),\(object["category"] ?? ""),"
        + "\(object["table_category"] ?? "")"
    }
    #expect(Set(got) == Set(oracle))
  }

  /// The commands as a team runs them (real processes, `simulator serve`): the account comes
  /// from the run's own `lost-notifications.csv`, which the simulator's delivery attempts decide.
  /// Evidence: our own code (the simulator and the tool), through the executable.
  @Test(
    "explain names an account's notifications Apple gave up delivering, with the run that reported them; an account only in the team table is said to be so"
  )
  func explainNamesLostNotifications() throws {
    let directory = try TemporaryDirectory.make(prefix: "explain-lost")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      [
        "simulator", "generate", "--accounts", "400", "--seed", "31", "--days-after", "9", "--out",
        "world",
      ], in: directory)
    #expect(generated.status == 0, "\(generated.standardError)")
    let night9 = "2025-11-10T00:00:00Z"
    let expected = try Tool.run(
      ["simulator", "expected", "--world", "world", "--at", night9, "--table", "table.csv"],
      in: directory)
    #expect(expected.status == 0, "\(expected.standardError)")
    // An account the legacy data does not hold, only in the team's table.
    let table = directory.appendingPathComponent("table.csv")
    let handle = try FileHandle(forWritingTo: table)
    try handle.seekToEnd()
    try handle.write(contentsOf: Data("only-in-table,com.example.plus.monthly,active,\n".utf8))
    try handle.close()

    let first = try Server(
      world: "world", clock: "2025-11-01T00:00:00Z", latency: nil, in: directory)
    defer { first.stop() }
    let migration = try Tool.run(
      Self.auditArguments(database: "store.sqlite", reports: "r", table: nil), in: directory,
      environment: first.environment)
    first.stop()
    #expect(migration.status == 0, "\(migration.standardError)")
    let server = try Server(world: "world", clock: night9, latency: nil, in: directory)
    defer { server.stop() }
    let audit = try Tool.run(
      Self.auditArguments(database: "store.sqlite", reports: "r", table: "table.csv"),
      in: directory, environment: server.environment)
    // Reported, counted in the headline; not a failure of the night.
    #expect(audit.status == 0, "\(audit.standardError)")
    #expect(audit.standardOutput.contains("Accounts only in your table, not compared: 1"))

    // lost-notifications.csv: uuid, …, accounts (8th field); the payloads hold no comma.
    let lost = try String(
      contentsOf: directory.appendingPathComponent("r/latest/lost-notifications.csv"),
      encoding: .utf8
    ).split(whereSeparator: \.isNewline).dropFirst().map {
      $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    }
    let named = try #require(
      lost.first { $0.count > 7 && !$0[7].isEmpty }, "some lost notification names an account")
    let account = String(named[7].split(separator: " ")[0])
    let explained = try Tool.run(["explain", account, "--db", "store.sqlite"], in: directory)
    #expect(explained.status == 0, "\(explained.standardError)")
    let line = explained.standardOutput.split(separator: "\n").last { $0.contains(named[0]) }
    #expect(line?.contains("lost (reported by run ") == true, "\(explained.standardOutput)")

    let outside = try Tool.run(["explain", "only-in-table", "--db", "store.sqlite"], in: directory)
    #expect(outside.status == 4)
    #expect(outside.standardError.contains("only in the team table"), "\(outside.standardError)")
  }

  @Test(
    "SIGINT, SIGTERM and SIGHUP stop a backfill cleanly with 130, 143 and 129; the rerun resumes",
    arguments: [(2, 130), (15, 143), (1, 129)] as [(Int32, Int32)])
  func signals(signal: Int32, status: Int32) throws {
    let directory = try TemporaryDirectory.make(prefix: "signals")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      ["simulator", "generate", "--accounts", "60", "--seed", "37", "--out", "world"],
      in: directory)
    #expect(generated.status == 0, "\(generated.standardError)")
    let server = try Server(
      world: "world", clock: "2025-11-01T00:00:00Z", latency: "40ms", in: directory)
    defer { server.stop() }
    let arguments = Self.auditArguments(database: "store.sqlite", reports: "r", table: nil)
    let (audit, errors) = try Tool.start(
      arguments, in: directory, environment: server.environment)
    defer { Tool.stop(audit) }
    try server.waitForRequests(6)
    kill(audit.processIdentifier, signal)
    // A stop that hangs must fail this test, not the whole suite: kill it after a minute.
    let pid = audit.processIdentifier
    DispatchQueue.global().asyncAfter(deadline: .now() + 60) { kill(pid, SIGKILL) }
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    audit.waitUntilExit()
    #expect(audit.terminationReason == .exit, "killed instead of stopping: \(said)")
    #expect(audit.terminationStatus == status, "\(said)")
    #expect(said.contains("run the same command again to resume"), "\(said)")
    // What was stored stays; the rerun finishes the job.
    let resumed = try Tool.run(arguments, in: directory, environment: server.environment)
    #expect(resumed.status == 0, "\(resumed.standardError)")
  }
}
