import Foundation
import TestDirectories
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `ingest` given what is not a regular file, between real processes: the campaign saw named
/// pipes without a writer and `/dev/zero` block it for ever (SIGTERM ignored), `/dev/urandom`
/// grow the store without bound, `<(…)` refused while a named pipe was read, and a loop of links
/// reported as "no such file". Evidence: our own tool, driven by bash's process substitution and
/// `mkfifo(3)`.
@Suite("receipt-migrate ingest of pipes and devices", .timeLimit(.minutes(1)))
struct SpecialInputCommandTests {
  static let records =
    #"{"account_id":"a1","response":{"status":21007}}"# + "\n"
    + #"{"account_id":"a2","response":{"status":21010}}"# + "\n"

  /// Runs `script` with bash in `directory`, `$TOOL` naming the tool.
  static func bash(_ script: String, in directory: URL) throws -> (
    status: Int32, standardOutput: String, standardError: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = directory
    process.environment = Tool.hermeticEnvironment.merging(["TOOL": Tool.executable.path]) {
      $1
    }
    let scratch = try TemporaryDirectory.make(prefix: "bash-output")
    defer { TemporaryDirectory.remove(scratch) }
    let output = scratch.appendingPathComponent("stdout")
    let errors = scratch.appendingPathComponent("stderr")
    #expect(FileManager.default.createFile(atPath: output.path, contents: nil))
    #expect(FileManager.default.createFile(atPath: errors.path, contents: nil))
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    process.waitUntilExit()
    return (
      process.terminationStatus, try String(contentsOf: output, encoding: .utf8),
      try String(contentsOf: errors, encoding: .utf8)
    )
  }

  @Test("devices and a loop of links: exit 3 naming the input and the reason, nothing stored")
  func refused() throws {
    let directory = try TemporaryDirectory.make(prefix: "special")
    defer { TemporaryDirectory.remove(directory) }
    #expect(symlink("loop", directory.appendingPathComponent("loop").path) == 0)
    for (input, reason) in [
      ("/dev/zero", "a character device"), ("/dev/urandom", "a character device"),
      ("loop", "a loop of symbolic links"),
    ] {
      let result = try Tool.run(["ingest", "--db", "s.sqlite", input], in: directory)
      #expect(result.status == 3, "\(input): \(result.standardError)")
      #expect(
        result.standardError.contains("ingest \(input): \(reason)"), "\(result.standardError)")
    }
  }

  @Test("<(…) and a named pipe are read alike: every record accepted")
  func pipesAlike() throws {
    let directory = try TemporaryDirectory.make(prefix: "special")
    defer { TemporaryDirectory.remove(directory) }
    try Data(Self.records.utf8).write(to: directory.appendingPathComponent("r.ndjson"))
    let substituted = try Self.bash(
      #""$TOOL" ingest --db a.sqlite <(cat r.ndjson)"#, in: directory)
    let named = try Self.bash(
      #"mkfifo p && { sleep 0.3; cat r.ndjson > p; } & "$TOOL" ingest --db b.sqlite p"#,
      in: directory)
    for result in [substituted, named] {
      #expect(result.status == 0, "\(result.standardError)")
      #expect(
        result.standardOutput.contains("Read 2 records")
          && result.standardOutput.contains("2 accepted"),
        "\(result.standardOutput)")
    }
  }

  @Test("SIGTERM while a named pipe has no writer: exit 143 within a second")
  func sigtermWithoutWriter() throws {
    let directory = try TemporaryDirectory.make(prefix: "special")
    defer { TemporaryDirectory.remove(directory) }
    #expect(mkfifo(directory.appendingPathComponent("p").path, 0o600) == 0)
    let (ingest, errors) = try Tool.start(["ingest", "--db", "s.sqlite", "p"], in: directory)
    defer { Tool.stop(ingest) }
    usleep(1_000_000)
    #expect(ingest.isRunning, "ingest did not wait for the pipe's writer")
    let signalled = ContinuousClock.now
    kill(ingest.processIdentifier, SIGTERM)
    ingest.waitUntilExit()
    let took = ContinuousClock.now - signalled
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(ingest.terminationStatus == 143, "\(said)")
    #expect(took < .seconds(2), "the stop took \(took)")
  }
}
