import Foundation
import TestDirectories
import Testing

/// A wrong key ends the night at once: the first 401 that survives a freshly signed token stops
/// the backfill (a first night) and the audit's refresh (a later one) with exit 3, naming the
/// settings to check, after at most the concurrency plus one request.
///
/// Evidence: our tool against our simulator (`simulator serve`, which checks the token's key id
/// as Apple does and answers 401 without a reason); the requests are counted from the
/// simulator's own request log, not from the tool. The first night's backfill has four groups in
/// flight when the first 401 arrives (before the client waited for one fresh token's verdict,
/// each re-signed its own: 8 requests); the later night's refresh opens with one notification
/// history page, so there the bound shows only that the run stops.
@Suite("receipt-migrate with wrong credentials, end to end", .timeLimit(.minutes(2)))
struct WrongCredentialsEndToEndTests {
  /// The concurrency the audits run with (``AuditCommandEndToEndTests/auditArguments``).
  static let concurrency = 4

  @Test("a wrong key id stops the first night's backfill and a later night's refresh: exit 3")
  func wrongKeyStopsAtOnce() throws {
    let directory = try TemporaryDirectory.make(prefix: "wrong-key")
    defer { TemporaryDirectory.remove(directory) }
    let generated = try Tool.run(
      [
        "simulator", "generate", "--accounts", "120", "--seed", "41", "--days-after", "2",
        "--out", "world",
      ], in: directory)
    try #require(generated.status == 0, "\(generated.standardError)")
    // Without the records that carry an order id, the backfill opens with `concurrency` groups
    // in flight at once (order ids are looked up first, and this world has only two).
    let legacy = try String(
      contentsOf: directory.appendingPathComponent("world/receipts.ndjson"), encoding: .utf8)
    try legacy.split(separator: "\n").filter { !$0.contains("\"order_id\"") }
      .joined(separator: "\n").write(
        to: directory.appendingPathComponent("receipts.ndjson"), atomically: true,
        encoding: .utf8)
    let arguments = AuditCommandEndToEndTests.auditArguments(
      database: "store.sqlite", reports: "r", table: nil
    ).map { $0 == "world/receipts.ndjson" ? "receipts.ndjson" : $0 }

    // First night, wrong key: the backfill stops.
    let first = try AuditCommandEndToEndTests.Server(
      world: "world", clock: "2025-11-01T00:00:00Z", latency: nil, in: directory)
    defer { first.stop() }
    var wrong = first.environment
    wrong["ASC_KEY_ID"] = "WRONGKEY01"
    let refused = try Tool.run(arguments, in: directory, environment: wrong)
    first.stopAndDrain()
    #expect(refused.status == 3, "\(refused.standardError)")
    Self.expectNamesTheSettings(refused.standardError)
    #expect(!first.requestLines.isEmpty)
    #expect(
      first.requestLines.count <= Self.concurrency + 1,
      "\(first.requestLines.count) requests: \(first.requestLines.prefix(12))")

    // The right key: the first night runs.
    let healthy = try AuditCommandEndToEndTests.Server(
      world: "world", clock: "2025-11-01T00:00:00Z", latency: nil, in: directory)
    defer { healthy.stop() }
    let migrated = try Tool.run(arguments, in: directory, environment: healthy.environment)
    healthy.stop()
    #expect(migrated.status == 0, "\(migrated.standardError)")

    // A later night, wrong key: the refresh stops.
    let later = try AuditCommandEndToEndTests.Server(
      world: "world", clock: "2025-11-03T00:00:00Z", latency: nil, in: directory)
    defer { later.stop() }
    wrong = later.environment
    wrong["ASC_KEY_ID"] = "WRONGKEY01"
    let audit = try Tool.run(arguments, in: directory, environment: wrong)
    later.stopAndDrain()
    #expect(audit.status == 3, "\(audit.standardError)")
    Self.expectNamesTheSettings(audit.standardError)
    #expect(!later.requestLines.isEmpty)
    #expect(
      later.requestLines.count <= Self.concurrency + 1,
      "\(later.requestLines.count) requests: \(later.requestLines.prefix(12))")
  }

  static func expectNamesTheSettings(
    _ text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for setting in ["401", "ASC_KEY_ID", "ASC_ISSUER_ID", "private key", "APP_BUNDLE_ID"] {
      #expect(
        text.contains(setting), "\(setting) not named: \(text)", sourceLocation: sourceLocation)
    }
  }
}
