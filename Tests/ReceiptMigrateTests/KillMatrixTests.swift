import Foundation
import TestDirectories
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The kill matrix: `migrate` killed with SIGKILL at a sweep of moments — during ingest,
/// backfill, compare and report writing, as the timing falls — then run again to the end, ends
/// with every account exactly as an uninterrupted run classifies it. Real processes against
/// `simulator serve`; our own tool on both sides.
@Suite("Kill matrix")
struct KillMatrixTests {
  /// Each account's category, cause and explanation from a report's discrepancies.ndjson
  /// (the members that do not depend on which earlier runs the store holds).
  static func verdicts(_ directory: URL) throws -> [String: String] {
    let text = try String(
      contentsOf: directory.appendingPathComponent("latest/discrepancies.ndjson"), encoding: .utf8)
    var verdicts: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let account = try #require(object["account_id"] as? String)
      verdicts[account] =
        "\(object["category"] ?? "") \(object["cause"] ?? "") \(object["explanation"] ?? "")"
    }
    return verdicts
  }

  @Test("SIGKILL at any moment of migrate, then a rerun: the same verdict for every account")
  func killAnywhere() throws {
    let directory = try TemporaryDirectory.make(prefix: "kills")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      ["simulator", "generate", "--accounts", "150", "--seed", "43", "--out", "world"],
      in: directory)
    #expect(generated.status == 0, "\(generated.standardError)")
    let server = try AuditCommandEndToEndTests.Server(
      world: "world", clock: "2025-11-01T00:00:00Z", latency: "20ms", in: directory)
    defer { server.stop() }
    func arguments(_ name: String) -> [String] {
      [
        "migrate", "--db", "\(name).sqlite", "--reports", name, "--legacy",
        "world/receipts.ndjson", "--catalog", "world/products.csv", "--receipt-root",
        "world/signing/root.pem", "--current-entitlements", "world/current-entitlements.csv",
        "--concurrency", "4",
      ]
    }
    let reference = try Tool.run(
      arguments("reference"), in: directory, environment: server.environment)
    #expect(reference.status == 0, "\(reference.standardError)")

    var killedWhileRunning = 0
    var stagesHit: Set<String> = []
    func killedRun(after delay: Int) throws {
      let (migrate, errors) = try Tool.start(
        arguments("killed"), in: directory, environment: server.environment)
      defer { Tool.stop(migrate) }
      usleep(useconds_t(delay * 1_000))
      kill(migrate.processIdentifier, SIGKILL)
      let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      migrate.waitUntilExit()
      guard migrate.terminationReason == .uncaughtSignal else { return }
      killedWhileRunning += 1
      // Stages announce themselves when they finish: the kill landed after the last one named.
      let stages = ["ingest", "backfill", "refresh", "compare"]
      stagesHit.insert("after " + (stages.last { said.contains("[\($0)] finished") } ?? "start"))
    }
    // First while ingest and backfill do the work; each kill resumes what the last one left.
    for delay in [20, 60, 150, 400, 800] { try killedRun(after: delay) }
    let finished = try Tool.run(arguments("killed"), in: directory, environment: server.environment)
    #expect(finished.status == 0, "\(finished.standardError)")
    // Then, with nothing left to fetch, while compare runs and the report is written.
    for delay in [40, 80, 120, 160, 220, 300, 400] { try killedRun(after: delay) }
    print("kill matrix: \(killedWhileRunning) kills landed: \(stagesHit.sorted())")
    #expect(killedWhileRunning >= 6, "too few kills landed before a run ended (\(stagesHit))")
    let resumed = try Tool.run(arguments("killed"), in: directory, environment: server.environment)
    #expect(resumed.status == 0, "\(resumed.standardError)")
    #expect(
      try FileManager.default.contentsOfDirectory(
        atPath: directory.appendingPathComponent("killed").path
      ).allSatisfy { !$0.hasSuffix(".tmp") }, "a killed writer's leftovers remain")
    let mine = try Self.verdicts(directory.appendingPathComponent("killed"))
    let theirs = try Self.verdicts(directory.appendingPathComponent("reference"))
    #expect(mine.count == 150)
    #expect(mine == theirs, "kills landed in \(stagesHit.sorted())")
  }
}
