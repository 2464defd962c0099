import Foundation
import TestDirectories
import Testing

/// Inputs that cannot be used stop a command before it does any work, with the flag and the
/// reason; a database others can read is made owner-only. Real processes, our own tool only.
@Suite("Fail before work")
struct FailBeforeWorkTests {
  /// A working directory; pair it with `defer { TemporaryDirectory.remove(directory) }`.
  func scratch() throws -> URL {
    try TemporaryDirectory.make(prefix: "fail-before") { directory in
      // The embedded simulator's world, so that only the missing input can stop the run.
      try FileManager.default.copyItem(
        at: repositoryLegacy, to: directory.appendingPathComponent("Legacy"))
    }
  }

  @Test(
    "a missing --legacy, catalogue or team table exits 3 naming it, before any request",
    arguments: [
      ["migrate", "--legacy", "missing.ndjson"],
      ["migrate", "--current-entitlements", "missing.csv"],
      ["migrate", "--catalog", "missing.csv"],
      ["audit", "--legacy", "missing.ndjson", "--simulated"],
      ["ingest", "missing.ndjson"],
      ["compare", "--current-entitlements", "missing.csv"],
    ])
  func missingInputs(arguments: [String]) throws {
    let directory = try scratch()
    defer { TemporaryDirectory.remove(directory) }
    let result = try Tool.run(arguments + ["--db", "store.sqlite"], in: directory)
    #expect(result.status == 3, "\(result.standardError)")
    #expect(result.standardError.contains("missing."), "\(result.standardError)")
    #expect(result.standardError.contains("no such file or folder"), "\(result.standardError)")
    // Nothing was backfilled: the embedded simulator was never asked.
    #expect(!result.standardError.contains("[backfill]"))
  }

  @Test(
    "a --rate-share that is not a share of Apple's limits is a usage error naming the flag",
    arguments: [
      ["audit", "--rate-share", "2"], ["migrate", "--rate-share", "0"],
      ["backfill", "--rate-share", "half"],
    ])
  func rateShare(arguments: [String]) throws {
    let directory = try scratch()
    defer { TemporaryDirectory.remove(directory) }
    let result = try Tool.run(arguments + ["--db", "store.sqlite"], in: directory)
    #expect(result.status == 2, "\(result.standardError)")
    #expect(result.standardError.contains("--rate-share"), "\(result.standardError)")
    #expect(!result.standardError.contains("[backfill]"))
  }

  @Test("a database readable by others is made owner-only, with a notice")
  func loosePermissions() throws {
    let directory = try scratch()
    defer { TemporaryDirectory.remove(directory) }
    try Data("{\"account_id\":\"y\",\"response\":{\"status\":21010}}\n".utf8)
      .write(to: directory.appendingPathComponent("in.ndjson"))
    let first = try Tool.run(["ingest", "in.ndjson", "--db", "store.sqlite"], in: directory)
    #expect(first.status == 0, "\(first.standardError)")
    let database = directory.appendingPathComponent("store.sqlite").path
    #expect(chmod(database, 0o644) == 0)
    let second = try Tool.run(["ingest", "in.ndjson", "--db", "store.sqlite"], in: directory)
    #expect(second.status == 0, "\(second.standardError)")
    #expect(second.standardError.contains("could be read by other users (mode 644)"))
    let mode = try FileManager.default.attributesOfItem(atPath: database)[.posixPermissions]
    #expect((mode as? NSNumber)?.intValue == 0o600)
  }

  @Test("a bare number is Unix seconds below 100,000,000,000 and milliseconds from there")
  func secondsOrMilliseconds() throws {
    let directory = try scratch()
    defer { TemporaryDirectory.remove(directory) }
    for instant in ["1761955200", "1761955200000", "2025-11-01T00:00:00Z"] {
      let result = try Tool.run(
        ["compare", "--as-of", instant, "--db", "empty-\(instant).sqlite"], in: directory)
      #expect(result.status == 0, "\(result.standardError)")
      #expect(
        result.standardOutput.contains("as of 2025-11-01T00:00:00Z"), "\(result.standardOutput)")
    }
    let wrong = try Tool.run(["compare", "--as-of", "soon", "--db", "x.sqlite"], in: directory)
    #expect(wrong.status == 2)
    #expect(wrong.standardError.contains("Unix seconds (1718452800)"))
  }
}
