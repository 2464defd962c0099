import Foundation
import MigrationStore
import Testing

/// The link journal: its states, the undo that marks what it restored, the tallies `link
/// --list` prints, and a store of schema 10 upgraded with its rows' meaning kept. Our own SQL
/// on both sides, on a real SQLite file.
@Suite("MigrationStore link journal")
struct LinkJournalTests {
  static func write(_ id: String, old: String?, new: String, state: LinkWriteRow.State = .planned)
    -> LinkWriteRow
  {
    LinkWriteRow(
      runId: "", originalTransactionId: id, accountId: "acct-\(id)", customerId: nil,
      environment: "Production", isSubscription: false, productType: "Non-Consumable",
      latestTransactionId: id, oldToken: old, newToken: new, state: state,
      reason: state == .skipped ? "consumable" : nil)
  }

  @Test("writes go planned → sent → confirmed or failed; an undo marks what it restored undone")
  func states() throws {
    try TemporaryDirectory.with { directory in
      let store = try MigrationStore(path: directory + "/state.sqlite", now: { 0 })
      defer { try? store.close() }
      let journal = store.linkJournal
      let apply = LinkRunRow(
        id: "link-1", kind: .apply, undoesRunId: nil, mapping: "tokens.csv",
        appStore: "simulated App Store", appStoreIdentity: "simulator abc", startedMilliseconds: 1)
      try journal.begin(
        apply,
        writes: [
          Self.write("1", old: nil, new: "a"), Self.write("2", old: "x", new: "a"),
          Self.write("3", old: nil, new: "a", state: .skipped),
        ])
      #expect(try journal.openRun(kind: .apply) == apply)
      for id in ["1", "2"] {
        try journal.markSent(runId: "link-1", originalTransactionId: id, attemptedMilliseconds: 2)
      }
      #expect(try journal.writes(runId: "link-1").map(\.state) == [.sent, .sent, .skipped])
      try journal.record(
        runId: "link-1", originalTransactionId: "1", state: .confirmed, reason: nil,
        answer: "200", answeredMilliseconds: 3)
      try journal.record(
        runId: "link-1", originalTransactionId: "2", state: .confirmed, reason: nil,
        answer: "200", answeredMilliseconds: 3)
      try journal.finish("link-1", finishedMilliseconds: 4)
      #expect(try journal.openRun(kind: .apply) == nil)

      let undo = LinkRunRow(
        id: "undo-1", kind: .undo, undoesRunId: "link-1", mapping: "undo of link-1",
        startedMilliseconds: 5)
      try journal.begin(undo, writes: [Self.write("2", old: "a", new: "x")])
      try journal.recordRestored(
        undoRunId: "undo-1", applyRunId: "link-1", originalTransactionId: "2", answer: "200",
        answeredMilliseconds: 6)
      let applied = try journal.writes(runId: "link-1")
      #expect(applied.map(\.state) == [.confirmed, .undone, .skipped])
      #expect(applied[1].undoneBy == "undo-1")
      #expect(try journal.undoRuns(of: "link-1").map(\.id) == ["undo-1"])

      let tallies = try journal.tallies()
      #expect(tallies.map(\.run.id) == ["undo-1", "link-1"])
      #expect(tallies[1].states == [.confirmed: 1, .undone: 1, .skipped: 1])
      #expect(tallies[1].skipped == ["consumable": 1])
      #expect(tallies[1].run.appStore == "simulated App Store")
      #expect(tallies[0].states == [.confirmed: 1])
    }
  }

  @Test(
    "a store of schema 10 keeps its journal's meaning: sending is sent, applied confirmed or undone, refused skipped with its reason"
  )
  func upgrade() throws {
    try TemporaryDirectory.with { directory in
      let path = directory + "/state.sqlite"
      try MigrationStore(path: path, now: { 0 }).close()
      // Back to schema 10: the link tables as version 5 made them, with rows of each state.
      try SchemaRollback.store(
        at: path, to: 10,
        then: """
          INSERT INTO link_runs VALUES ('link-old', 'apply', NULL, 'tokens.csv', 1, 9);
          INSERT INTO link_runs VALUES ('undo-old', 'undo', 'link-old', 'undo of link-old', 10, 19);
          INSERT INTO link_runs VALUES ('link-open', 'apply', NULL, 'tokens.csv', 20, NULL);
          INSERT INTO link_writes VALUES ('link-old', '1', 'a1', NULL, 'Production', 0, 'x', 'a', 'applied', '200', 2, 3);
          INSERT INTO link_writes VALUES ('link-old', '2', 'a2', NULL, 'Production', 0, NULL, 'a', 'applied', '200', 2, 3);
          INSERT INTO link_writes VALUES ('link-old', '3', 'a3', NULL, 'Production', 1, NULL, 'a', 'refused', 'family-shared: Apple offers no token for it (it would answer 4000185)', NULL, 3);
          INSERT INTO link_writes VALUES ('link-old', '4', 'a4', NULL, 'Production', 0, NULL, 'a', 'failed', '4000187', 2, 3);
          INSERT INTO link_writes VALUES ('undo-old', '1', 'a1', NULL, 'Production', 0, 'a', 'x', 'applied', '200', 11, 12);
          INSERT INTO link_writes VALUES ('undo-old', '2', 'a2', NULL, 'Production', 0, 'a', '', 'refused', 'the purchase had no token before link-old; Apple cannot remove one, so it keeps a', NULL, 12);
          INSERT INTO link_writes VALUES ('link-open', '5', 'a5', NULL, 'Production', 0, NULL, 'b', 'sending', NULL, 21, NULL);
          INSERT INTO link_writes VALUES ('link-open', '6', 'a6', NULL, 'Production', 0, NULL, 'b', 'planned', NULL, NULL, NULL);
          INSERT INTO link_writes VALUES ('link-open', '7', 'a7', NULL, 'Production', 0, NULL, 'b', 'refused', 'its customer is linked to accounts a7, a8, which have different tokens; …', NULL, 20);
          INSERT INTO link_writes VALUES ('link-open', '8', 'a8', NULL, 'Production', 0, NULL, 'b', 'refused', 'the store holds no original purchase with this id (Apple would answer 4000187); run backfill again', NULL, 20);
          """)

      let upgraded = try MigrationStore(path: path, now: { 0 })
      defer { try? upgraded.close() }
      let journal = upgraded.linkJournal
      func described(_ run: String) throws -> [String] {
        try journal.writes(runId: run).map {
          "\($0.originalTransactionId) \($0.state.rawValue) \($0.reason ?? "-") \($0.undoneBy ?? "-")"
        }
      }
      #expect(
        try described("link-old") == [
          "1 undone - undo-old", "2 confirmed - -", "3 skipped family_shared -", "4 failed - -",
        ])
      #expect(
        try described("undo-old") == ["1 confirmed - -", "2 skipped no_previous_token -"])
      #expect(
        try described("link-open") == [
          "5 sent - -", "6 planned - -", "7 skipped several_accounts -", "8 skipped not_original -",
        ])
      #expect(try journal.openRun(kind: .apply)?.id == "link-open")
      #expect(try journal.run("link-old")?.appStore == nil)
    }
  }
}
