import Foundation
import MigrationStore
import Testing

/// The run ledger and the recipe book on real SQLite files: which run is a baseline, which
/// run lost notifications are handed to, what an upgrade makes of runs stored before.
/// (Our own code only.)
@Suite("MigrationStore run ledger and recipe")
struct RunLedgerTests {
  static func run(
    _ id: String, started: Int64, key: String? = "k1", finished: Bool = true,
    reported: Bool = true, ended: Bool = true, in store: MigrationStore
  ) throws {
    try store.runLedger.begin(
      RunRow(
        id: id, startedMilliseconds: started, finishedMilliseconds: nil, asOfMilliseconds: started,
        isSimulated: true, inputs: "{}", summary: nil, command: "audit",
        commandLine: #"["audit"]"#, recipeKey: key))
    if finished {
      try store.runLedger.finish(id, finishedMilliseconds: started + 1, summary: "{}")
    }
    if reported {
      try store.runLedger.markReported(id, directory: "/r/\(id)", at: started + 2)
    }
    if ended { try store.runLedger.recordEnd(id, exitCode: 0, at: started + 3) }
  }

  @Test("the baseline is the last run both reported and ended, of the same inputs when one exists")
  func baseline() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    defer { try? store.close() }
    try Self.run("a", started: 10, in: store)
    try Self.run("b", started: 20, key: "other", in: store)
    try Self.run("c", started: 30, reported: false, in: store)
    try Self.run("d", started: 40, ended: false, in: store)
    try Self.run("e", started: 50, finished: false, reported: false, ended: false, in: store)
    try Self.run("now", started: 60, finished: false, reported: false, ended: false, in: store)
    let now = try #require(try store.runLedger.run("now"))
    #expect(try store.runLedger.baseline(before: now, recipeKey: "k1")?.id == "a")
    #expect(try store.runLedger.baseline(before: now, recipeKey: "other")?.id == "b")
    // No complete run of these inputs: the last complete run of any.
    #expect(try store.runLedger.baseline(before: now, recipeKey: "k9")?.id == "b")
    #expect(try store.runLedger.baseline(before: now, recipeKey: nil)?.id == "b")
    let first = try #require(try store.runLedger.run("a"))
    #expect(try store.runLedger.baseline(before: first, recipeKey: "k1") == nil)
    #expect(try store.runLedger.completeRuns(before: now, limit: 10).map(\.id) == ["b", "a"])
    #expect(try store.runLedger.runs(limit: 2).map(\.id) == ["now", "e"])
    #expect(try store.runLedger.lastSuccessMilliseconds() == 33)
  }

  @Test("lost notifications claimed by a run that never completed go to the next run")
  func lostNotificationsTakenOver() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    defer { try? store.close() }
    func lost(_ uuid: String) throws {
      try store.storeLostNotification(
        LostNotificationRow(
          uuid: uuid, environment: "Production", type: "DID_RENEW", subtype: nil,
          signedMilliseconds: 1, originalTransactionId: "1", transactionId: "1", customerId: nil,
          firstAttemptMilliseconds: 1, lastAttemptMilliseconds: 2, lastResult: "TIMED_OUT",
          signedPayload: "x.y.z"), foundAt: 1)
    }
    try lost("n1")
    try Self.run("complete", started: 10, reported: false, ended: false, in: store)
    try store.claimUnreportedLostNotifications(for: "complete")
    try store.runLedger.markReported("complete", directory: "/r", at: 12)
    try store.runLedger.recordEnd("complete", exitCode: 1, at: 13)
    try lost("n2")
    try Self.run("killed", started: 20, reported: false, ended: false, in: store)
    try store.claimUnreportedLostNotifications(for: "killed")
    try store.runLedger.markReported("killed", directory: "/r", at: 22)  // but never ended
    try Self.run("next", started: 30, reported: false, ended: false, in: store)
    try store.claimUnreportedLostNotifications(for: "next")
    #expect(try store.lostNotifications(reportedBy: "complete").map(\.notification.uuid) == ["n1"])
    #expect(try store.lostNotifications(reportedBy: "killed").isEmpty)
    #expect(try store.lostNotifications(reportedBy: "next").map(\.notification.uuid) == ["n2"])
  }

  @Test("the recipe book adds what it lacks, replaces on set, and removes")
  func recipeBook() throws {
    let store = try MigrationStore(inMemoryWithClock: { 0 })
    defer { try? store.close() }
    let book = store.recipeBook
    #expect(
      try book.add([
        RecipeSettingRow(name: "catalog", value: #""/a.csv""#, setBy: "migrate", setMilliseconds: 1)
      ]) == ["catalog"])
    #expect(
      try book.add([
        RecipeSettingRow(name: "catalog", value: #""/b.csv""#, setBy: "audit", setMilliseconds: 2),
        RecipeSettingRow(name: "fail-on", value: #""any""#, setBy: "audit", setMilliseconds: 2),
      ]) == ["fail-on"])
    #expect(try book.settings().map(\.value) == [#""/a.csv""#, #""any""#])
    try book.set(
      RecipeSettingRow(
        name: "catalog", value: #""/c.csv""#, setBy: "recipe set", setMilliseconds: 3))
    #expect(try book.settings().first?.setBy == "recipe set")
    #expect(try book.remove("catalog"))
    #expect(try !book.remove("catalog"))
    #expect(try book.settings().map(\.name) == ["fail-on"])
  }

  @Test("an upgrade to version 11 takes every finished run as reported and ended")
  func upgrade() throws {
    try TemporaryDirectory.with { directory in
      let path = directory + "/state.sqlite"
      let store = try MigrationStore(path: path, now: { 0 })
      try Self.run("done", started: 10, reported: false, ended: false, in: store)
      try Self.run("cut", started: 20, finished: false, reported: false, ended: false, in: store)
      try store.close()
      try SchemaRollback.store(at: path, to: 10)
      let upgraded = try MigrationStore(path: path, now: { 0 })
      defer { try? upgraded.close() }
      let done = try #require(try upgraded.runLedger.run("done"))
      #expect(done.isComplete && done.reportedMilliseconds == 11 && done.exitCode == nil)
      #expect(try upgraded.runLedger.run("cut")?.isComplete == false)
      #expect(try upgraded.recipeBook.settings().isEmpty)
    }
  }
}
