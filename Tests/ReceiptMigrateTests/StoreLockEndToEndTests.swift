import Foundation
import MigrationStore
import TestDirectories
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// One run per store, between real processes.
@Suite("One run per store, end to end")
struct StoreLockEndToEndTests {
  /// A new working directory; pair it with `defer { TemporaryDirectory.remove(directory) }`.
  func directory() throws -> URL {
    try TemporaryDirectory.make(prefix: "lock")
  }

  @Test("a second process refuses at once with exit 75, naming the holder")
  func secondProcessRefuses() throws {
    let directory = try directory()
    defer { TemporaryDirectory.remove(directory) }
    let database = directory.appendingPathComponent("store.sqlite").path
    // This test process holds the store, as a running audit would.
    let lock = try StoreLock.acquire(
      forDatabaseAt: database, command: "receipt-migrate audit", since: "2026-11-25T03:00:00Z")
    defer { lock.release() }
    for command in [["audit"], ["migrate"], ["compare"], ["backfill"], ["ingest", "x.ndjson"]] {
      let result = try Tool.run(command + ["--db", database], in: directory)
      #expect(result.status == 75, "\(command): \(result.standardError)")
      #expect(result.standardError.contains("process \(getpid()) (receipt-migrate audit)"))
      #expect(result.standardError.contains("since 2026-11-25T03:00:00Z"))
    }
    #expect(StoreLock.holder(ofDatabaseAt: database)?.processId == getpid())
  }

  /// The campaign ran `--db alias.sqlite` (a symbolic link) beside `--db db.sqlite`: two
  /// writers, 4,531 requests instead of 3,665, inflated page counts.
  @Test("through a symbolic link or a hard link in another folder, a second process refuses")
  func otherNamesRefuse() throws {
    let directory = try directory()
    defer { TemporaryDirectory.remove(directory) }
    let database = directory.appendingPathComponent("db.sqlite").path
    let lock = try StoreLock.acquire(
      forDatabaseAt: database, command: "receipt-migrate audit", since: "2026-11-25T03:00:00Z")
    defer { lock.release() }
    let elsewhere = directory.appendingPathComponent("elsewhere")
    try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false)
    #expect(symlink(database, directory.appendingPathComponent("alias.sqlite").path) == 0)
    #expect(link(database, elsewhere.appendingPathComponent("hard.sqlite").path) == 0)
    for name in ["alias.sqlite", "elsewhere/hard.sqlite"] {
      let result = try Tool.run(["compare", "--db", name], in: directory)
      #expect(result.status == 75, "\(name): \(result.standardError)")
      #expect(
        result.standardError.contains("process \(getpid()) (receipt-migrate audit"),
        "\(name): \(result.standardError)")
    }
    // The hard link is met only at the file's identity: the refusal names the other name.
    let hard = try Tool.run(["compare", "--db", "elsewhere/hard.sqlite"], in: directory)
    #expect(hard.standardError.contains("on \(lock.path.dropLast(".lock".count))"))
  }

  @Test("a --db that is a loop of symbolic links is a configuration error that says so")
  func loopRefused() throws {
    let directory = try directory()
    defer { TemporaryDirectory.remove(directory) }
    #expect(symlink("b.sqlite", directory.appendingPathComponent("a.sqlite").path) == 0)
    #expect(symlink("a.sqlite", directory.appendingPathComponent("b.sqlite").path) == 0)
    let result = try Tool.run(["compare", "--db", "a.sqlite"], in: directory)
    #expect(result.status == 3, "\(result.standardError)")
    #expect(result.standardError.contains("loop of symbolic links"), "\(result.standardError)")
  }

  @Test("a holder killed with SIGKILL blocks nobody; --wait waits for a live one")
  func killedHolderBlocksNobody() throws {
    let directory = try directory()
    defer { TemporaryDirectory.remove(directory) }
    let database = directory.appendingPathComponent("store.sqlite").path
    // flock(1) from util-linux takes the same lock (flock(2) on the same file) and keeps it
    // while its child sleeps: judged by code we did not write.
    #expect(
      FileManager.default.createFile(
        atPath: StoreLock.lockPath(forDatabaseAt: database), contents: nil))
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
    // --no-fork: flock execs the sleep itself, so the process killed is the one holding the lock.
    holder.arguments = ["--no-fork", StoreLock.lockPath(forDatabaseAt: database), "sleep", "30"]
    try holder.run()
    defer {
      if holder.isRunning { kill(holder.processIdentifier, SIGKILL) }
      holder.waitUntilExit()
    }
    // Wait until it holds the lock.
    var held = false
    for _ in 0..<100 where !held {
      held = (try? StoreLock.acquire(forDatabaseAt: database, command: "probe", since: "-")) == nil
      if !held { usleep(20_000) }
    }
    #expect(held, "flock never took the lock")

    // --wait waits while it lives, then gets the store once it is killed.
    let waiter = Process()
    waiter.executableURL = Tool.executable
    waiter.arguments = ["compare", "--db", database, "--wait"]
    waiter.currentDirectoryURL = directory
    waiter.environment = Tool.hermeticEnvironment
    let errors = Pipe()
    waiter.standardError = errors
    waiter.standardOutput = Pipe()
    try waiter.run()
    defer {
      if waiter.isRunning { waiter.terminate() }
      waiter.waitUntilExit()
    }
    usleep(500_000)
    #expect(waiter.isRunning, "--wait did not wait")
    kill(holder.processIdentifier, SIGKILL)
    holder.waitUntilExit()
    waiter.waitUntilExit()
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(stderr.contains("waiting for"))
    #expect(waiter.terminationStatus != 75, "\(stderr)")

    // Nobody holds it now.
    let lock = try StoreLock.acquire(forDatabaseAt: database, command: "after", since: "-")
    lock.release()
  }
}
