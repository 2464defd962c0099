import Foundation
import TestDirectories
import Testing

/// Runs the built `receipt-migrate` the way a user does.
struct Tool {
  static let executable: URL = {
    // The test bundle sits beside the products of the same build.
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = bundle.deletingLastPathComponent()
    while !FileManager.default.fileExists(
      atPath: directory.appendingPathComponent("receipt-migrate").path),
      directory.path != "/"
    {
      directory = directory.deletingLastPathComponent()
    }
    return directory.appendingPathComponent("receipt-migrate")
  }()

  /// The process environment without App Store settings: credentials in the developer's shell
  /// must not turn a test into a call to Apple.
  static var hermeticEnvironment: [String: String] {
    ProcessInfo.processInfo.environment.filter { name, _ in
      !name.hasPrefix("ASC_") && !name.hasPrefix("APP_STORE_") && name != "APP_BUNDLE_ID"
        && name != "APP_APPLE_ID"
    }
  }

  struct Result {
    var status: Int32
    var standardOutput: String
    var standardError: String
  }

  /// Starts the tool without waiting for it, for tests that signal or kill it; its standard
  /// output is discarded and its standard error is returned to read.
  static func start(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:]
  ) throws -> (process: Process, standardError: Pipe) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.environment = hermeticEnvironment.merging(environment) { $1 }
    let errors = Pipe()
    process.standardOutput = Pipe()
    process.standardError = errors
    try process.run()
    return (process, errors)
  }

  /// Kills a process from ``start(_:in:environment:)`` with SIGKILL if it still runs, and waits
  /// for it: deferred by the tests that start one, so that a test that fails early leaves no
  /// process working in a directory about to be removed.
  static func stop(_ process: Process) {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  /// ``run(_:in:environment:)`` on a Dispatch thread: the test waits for the tool without holding
  /// one of Swift's cooperative threads (as many as cores, two on the project's machine), on
  /// which every other test — and its time limit — counts.
  static func complete(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:]
  ) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Swift.Result { try run(arguments, in: directory, environment: environment) })
      }
    }
  }

  /// Runs the tool to completion.
  ///
  /// Started with `posix_spawn`, not Foundation's `Process`: this test process holds a couple
  /// of thousand descriptors at its busiest (every test's loopback servers), and `Process.run`
  /// was seen to crash copying the descriptor list while other threads opened and closed
  /// sockets. Output goes to files in a scratch folder, read once the tool has exited.
  ///
  /// - Parameters:
  ///   - arguments: the command line.
  ///   - directory: the working directory.
  ///   - environment: variables to set on top of the hermetic environment.
  static func run(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:]
  ) throws -> Result {
    // The shell changes into the working directory, then becomes the tool.
    let command =
      ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path, executable.path]
      + arguments
    let variables = hermeticEnvironment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
    return try spawn(command, environment: variables)
  }

  /// Runs `command` (its first element an absolute path) with exactly `environment`, standard
  /// input from `/dev/null`, and waits for it; its output is read from files once it has
  /// exited.
  ///
  /// - Parameters:
  ///   - command: the program and its arguments.
  ///   - environment: `NAME=VALUE` entries, the whole environment.
  /// - Returns: the exit status (128 + the signal when killed) and the output.
  static func spawn(_ command: [String], environment: [String]) throws -> Result {
    let scratch = try TemporaryDirectory.make(prefix: "tool-output")
    defer { TemporaryDirectory.remove(scratch) }
    let outputPath = scratch.appendingPathComponent("stdout").path
    let errorPath = scratch.appendingPathComponent("stderr").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = command.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let started = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
    guard started == 0 else { throw POSIXError(POSIXErrorCode(rawValue: started) ?? .EINVAL) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exited = status & 0x7F == 0
    return Result(
      status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
      standardOutput: String(
        decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self),
      standardError: String(
        decoding: FileManager.default.contents(atPath: errorPath) ?? Data(), as: UTF8.self))
  }
}

let repositoryLegacy = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Legacy")

@Suite("receipt-migrate ingest, end to end", .timeLimit(.minutes(1)))
struct IngestCommandEndToEndTests {
  /// A working directory holding a copy of the repository's `Legacy/`; pair it with
  /// `defer { TemporaryDirectory.remove(directory) }`.
  func workingCopy() throws -> URL {
    try TemporaryDirectory.make(prefix: "e2e") { directory in
      try FileManager.default.copyItem(
        at: repositoryLegacy, to: directory.appendingPathComponent("Legacy"))
    }
  }

  @Test("ingests a copy of the sample, prints its summary and exits 0")
  func sample() throws {
    let directory = try workingCopy()
    defer { TemporaryDirectory.remove(directory) }
    let result = try Tool.run(
      ["ingest", "Legacy/handmade", "--catalog", "Legacy/products.csv"], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.hasPrefix("Read 27 records"))
    #expect(
      result.standardOutput.contains(
        "27 accepted, 0 partial (27 new, 0 already stored), 0 quarantined."))
    #expect(result.standardOutput.contains("  distinct original transaction ids  27\n"))
    #expect(
      result.standardOutput.contains(
        "  21010 the user account cannot be found or has been deleted   1\n"))
    #expect(result.standardError.contains("[ingest] finished"))
    // Without App Store credentials, commands use the simulated store by default.
    let database = directory.appendingPathComponent(".receipt-migrate/simulated.sqlite").path
    let permissions =
      try FileManager.default.attributesOfItem(atPath: database)[.posixPermissions] as? NSNumber
    #expect(permissions?.intValue == 0o600)

    let again = try Tool.run(["ingest", "Legacy/handmade", "--json"], in: directory)
    #expect(again.status == 0)
    let summary =
      try JSONSerialization.jsonObject(with: Data(again.standardOutput.utf8)) as? [String: Any]
    #expect(summary?["already_stored"] as? Int == 27)
  }

  @Test("exits 4 and names the position of every quarantined record")
  func quarantine() throws {
    let directory = try workingCopy()
    defer { TemporaryDirectory.remove(directory) }
    try Data("{\"account_id\": \"a\", \"response\": {\"status\": 0}}\n{\"account_id\": \n".utf8)
      .write(to: directory.appendingPathComponent("damaged.ndjson"))
    let result = try Tool.run(["ingest", "damaged.ndjson"], in: directory)
    #expect(result.status == 4)
    #expect(
      result.standardOutput.contains(
        "damaged.ndjson:2 (byte 47): account_id: truncated JSON (input ended inside a value) at byte 15 of the record"
      ))
    #expect(result.standardError.contains("Error: 1 input(s) quarantined"))
  }

  @Test("explain names the stored account an id differs from only in Unicode normalization")
  func explainEquivalentId() throws {
    let directory = try TemporaryDirectory.make(prefix: "e2e")
    defer { TemporaryDirectory.remove(directory) }
    let stored = "jose\u{301}@example.com"
    let typed = "jos\u{E9}@example.com"
    try Data("account_id,original_transaction_id\n\(stored),1000000712345678\n".utf8)
      .write(to: directory.appendingPathComponent("seeds.csv"))
    let ingest = try Tool.run(["ingest", "seeds.csv", "--db", "s.sqlite"], in: directory)
    #expect(ingest.status == 0, "\(ingest.standardError)")
    // 4: the account was never backfilled; the run is recorded all the same.
    let compare = try Tool.run(
      ["compare", "--as-of", "2025-11-01T00:00:00Z", "--db", "s.sqlite"], in: directory)
    #expect(compare.status == 4, "\(compare.standardError)")
    let missing = try Tool.run(["explain", typed, "--db", "s.sqlite"], in: directory)
    #expect(missing.status == 4)
    #expect(
      missing.standardError.contains(
        "it holds an account whose id differs only in Unicode normalization: "
          + "jose\\u{301}@example.com (you gave jos\\u{E9}@example.com)"),
      "\(missing.standardError)")
    let found = try Tool.run(["explain", stored, "--db", "s.sqlite"], in: directory)
    #expect(found.status == 0, "\(found.standardError)")
    let unrelated = try Tool.run(["explain", "nobody", "--db", "s.sqlite"], in: directory)
    #expect(unrelated.status == 4)
    #expect(!unrelated.standardError.contains("normalization"))
  }

  @Test("a receipt declaring a length near Int.max is quarantined by name, on every run")
  func hugeLengthReceipt() throws {
    let directory = try workingCopy()
    defer { TemporaryDirectory.remove(directory) }
    // `30 88 7f ff ff ff ff ff ff ff`: the ten bytes that once killed every ingest of a file.
    try Data(
      ("{\"account_id\":\"x\",\"receipt_data\":\"MIh//////////w==\"}\n"
        + "{\"account_id\":\"y\",\"response\":{\"status\":21010}}\n").utf8
    )
    .write(to: directory.appendingPathComponent("hostile.ndjson"))
    for _ in 0..<2 {
      let result = try Tool.run(["ingest", "hostile.ndjson"], in: directory)
      #expect(result.status == 4, "\(result.standardError)")
      #expect(result.standardOutput.contains("hostile.ndjson:1"), "\(result.standardOutput)")
      #expect(result.standardOutput.contains("1 accepted"), "\(result.standardOutput)")
    }
    let receipt = directory.appendingPathComponent("hostile.receipt")
    try Data([0x30, 0x88, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]).write(to: receipt)
    let inspected = try Tool.run(["receipt", "hostile.receipt"], in: directory)
    #expect(inspected.status != 0)
    #expect(inspected.standardError.contains("cut short"), "\(inspected.standardError)")
  }

  @Test("a folder's pipes, devices and links to them are skipped with the reason, never read")
  func specialFiles() throws {
    let directory = try workingCopy()
    defer { TemporaryDirectory.remove(directory) }
    let folder = directory.appendingPathComponent("inputs")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("{\"account_id\":\"y\",\"response\":{\"status\":21010}}\n".utf8)
      .write(to: folder.appendingPathComponent("b.ndjson"))
    #expect(mkfifo(folder.appendingPathComponent("a.ndjson").path, 0o600) == 0)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("c.ndjson").path, withDestinationPath: "/dev/zero")
    // Before the fix this hung forever on the pipe; a hang fails the test by its time limit.
    let result = try Tool.run(["ingest", "inputs"], in: directory)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("1 accepted"), "\(result.standardOutput)")
    #expect(result.standardOutput.contains("a named pipe (only regular files are read)"))
    #expect(result.standardOutput.contains("symbolic link to a character device (not followed)"))
  }

  @Test("usage errors exit 2, an unusable database exits 3")
  func exitCodes() throws {
    let directory = try workingCopy()
    defer { TemporaryDirectory.remove(directory) }
    #expect(try Tool.run(["ingest"], in: directory).status == 2)
    #expect(try Tool.run(["ingest", "x", "--max-record-bytes", "1"], in: directory).status == 2)
    #expect(try Tool.run(["frobnicate"], in: directory).status == 2)
    try Data("not a database at all, just text that is long enough to be a header".utf8)
      .write(to: directory.appendingPathComponent("other.sqlite"))
    let foreign = try Tool.run(
      ["ingest", "Legacy/handmade", "--db", "other.sqlite"], in: directory)
    #expect(foreign.status == 3, "\(foreign.standardError)")
    #expect(try Tool.run(["--version"], in: directory).standardOutput == "0.1.0-dev\n")
  }
}
