import Foundation
import TestDirectories
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The first SIGTERM ends a run within a bounded time whatever it waits on. The campaign sent
/// it to an audit frozen on a 429 a day long: acknowledged, and ignored. Between real
/// processes: the tool against `simulator serve` acting the fault out; our own tool on both
/// sides, the clock only to bound how long the stop took.
@Suite("A stop signal during a wait")
struct StopDuringWaitTests {
  @Test("SIGTERM while a 429 asks for ten minutes: exit 143 within seconds, saying so")
  func sigtermDuringRetryAfter() throws {
    let directory = try TemporaryDirectory.make(prefix: "stop-wait")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      ["simulator", "generate", "--accounts", "20", "--seed", "44", "--out", "world"],
      in: directory)
    #expect(generated.status == 0, "\(generated.standardError)")
    // Ten minutes is within the client's longest wait (15): it waits, until told to stop.
    let server = try AuditCommandEndToEndTests.Server(
      world: "world", clock: "2025-11-01T00:00:00Z", latency: nil, in: directory,
      extra: ["--faults", "status:retry-after=1", "--fault-retry-after", "10m"])
    defer { server.stop() }
    let (migrate, errors) = try Tool.start(
      [
        "migrate", "--db", "store.sqlite", "--reports", "r", "--legacy", "world/receipts.ndjson",
        "--catalog", "world/products.csv", "--receipt-root", "world/signing/root.pem",
        "--current-entitlements", "world/current-entitlements.csv",
      ], in: directory, environment: server.environment)
    defer { Tool.stop(migrate) }
    try server.waitForRequest(containing: " 429 ")
    usleep(300_000)
    #expect(migrate.isRunning, "the run did not wait for the Retry-After")
    let signalled = ContinuousClock.now
    kill(migrate.processIdentifier, SIGTERM)
    migrate.waitUntilExit()
    let took = ContinuousClock.now - signalled
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(migrate.terminationStatus == 143, "\(said)")
    #expect(said.contains("SIGTERM received"), "\(said)")
    // 100 ms to notice, then the stages' checkpoints; nothing was in flight.
    #expect(took < .seconds(10), "the stop took \(took)")
  }
}
