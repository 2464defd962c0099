import Foundation
import Testing

@testable import MigrationStore

/// The lost notifications' listings and the replay journal, on a real SQLite file (our own code
/// only): which notifications each listing selects, the latest attempt per destination, and the
/// upgrade of a store of version 13.
@Suite("Lost notifications and the replay journal")
struct NotificationReplayStorageTests {
  static func lost(_ uuid: String, signed: Int64?, customer: Int64?) -> LostNotificationRow {
    LostNotificationRow(
      uuid: uuid, environment: "Production", type: "DID_RENEW", subtype: nil,
      signedMilliseconds: signed, originalTransactionId: "1", transactionId: "2",
      customerId: customer, firstAttemptMilliseconds: signed, lastAttemptMilliseconds: signed,
      lastResult: "TIMED_OUT", signedPayload: "h.p-\(uuid).s")
  }

  /// A store with two accounts sharing one customer, a third account with its own, and four
  /// lost notifications: two of the shared customer's, one of the other's, one of nobody known.
  static func populated(_ path: String) throws -> MigrationStore {
    let store = try MigrationStore(path: path, now: { 0 })
    try CompactTransactionStorageTests.addAccounts(["acct-1", "acct-2", "acct-3"], to: store)
    let shared = try store.claimCustomer(
      key: "Production:7001", appTransactionId: "7001", environment: "Production",
      walkTransactionId: "1", now: 1, compactFormat: nil
    ).row
    let own = try store.claimCustomer(
      key: "Production:7003", appTransactionId: "7003", environment: "Production",
      walkTransactionId: "3", now: 1, compactFormat: nil
    ).row
    try store.linkAccount("acct-2", toCustomer: shared.id)
    try store.linkAccount("acct-1", toCustomer: shared.id)
    try store.linkAccount("acct-3", toCustomer: own.id)
    for row in [
      lost("n-3", signed: 3_000, customer: own.id), lost("n-1", signed: 1_000, customer: shared.id),
      lost("n-2", signed: 2_000, customer: shared.id), lost("n-0", signed: nil, customer: nil),
    ] {
      try store.storeLostNotification(row, foundAt: 10)
    }
    return store
  }

  @Test("each listing selects its notifications, in signing order, with the customer's accounts")
  func listings() throws {
    try TemporaryDirectory.with(prefix: "replay") { directory in
      let store = try Self.populated(directory + "/state.sqlite")
      defer { try? store.close() }
      let ofAccount = try store.lostNotifications(ofAccount: "acct-1")
      #expect(ofAccount.map(\.notification.uuid) == ["n-1", "n-2"])
      #expect(ofAccount[0].accounts == ["acct-1", "acct-2"])
      #expect(ofAccount[0].customerKey == "Production:7001")
      #expect(try store.lostNotifications(ofAccount: "acct-3").map(\.notification.uuid) == ["n-3"])
      #expect(try store.lostNotifications(ofAccount: "acct-9").isEmpty)
      // Every one, the one without a signing instant first (SQLite sorts NULL first).
      #expect(
        try store.lostNotifications(signedFrom: nil).map(\.notification.uuid)
          == ["n-0", "n-1", "n-2", "n-3"])
      #expect(
        try store.lostNotifications(signedFrom: 2_000).map(\.notification.uuid) == ["n-2", "n-3"])
      try store.claimUnreportedLostNotifications(for: "run-1")
      let reported = try store.lostNotifications(reportedBy: "run-1")
      #expect(reported.count == 4)
      #expect(reported.allSatisfy { $0.reportedRunId == "run-1" })
    }
  }

  @Test("the journal keeps every attempt; the latest per destination decides")
  func journal() throws {
    try TemporaryDirectory.with(prefix: "replay") { directory in
      let store = try Self.populated(directory + "/state.sqlite")
      defer { try? store.close() }
      let a = "https://a.example/n"
      let b = "https://b.example/n"
      let refused = try store.beginReplay(uuid: "n-1", destination: a, sentAt: 100)
      try store.finishReplay(
        id: refused, state: .failed, answeredAt: 101, httpStatus: 503, error: "busy")
      let accepted = try store.beginReplay(uuid: "n-1", destination: a, sentAt: 200)
      try store.finishReplay(
        id: accepted, state: .accepted, answeredAt: 201, httpStatus: 200, error: nil)
      // Killed between sending and the answer: left `sent`.
      _ = try store.beginReplay(uuid: "n-2", destination: a, sentAt: 300)
      _ = try store.beginReplay(uuid: "n-1", destination: b, sentAt: 400)

      let latest = try store.latestReplays(to: a)
      #expect(latest["n-1"]?.state == .accepted && latest["n-1"]?.httpStatus == 200)
      #expect(latest["n-2"]?.state == .sent && latest["n-2"]?.answeredMilliseconds == nil)
      #expect(latest["n-3"] == nil)
      #expect(try store.latestReplays(to: b).keys.sorted() == ["n-1"])
      let history = try store.replays(of: "n-1")
      #expect(history.map(\.state) == [.failed, .accepted, .sent])
      #expect(history[0].error == "busy" && history[0].httpStatus == 503)
    }
  }

  @Test("a store of version 13 is upgraded with an empty journal, its notifications kept")
  func upgrade() throws {
    try TemporaryDirectory.with(prefix: "replay") { directory in
      let path = directory + "/state.sqlite"
      try Self.populated(path).close()
      // Back to version 13: the journal and its version row gone.
      try SchemaRollback.store(at: path, to: 13)

      let upgraded = try MigrationStore(path: path, now: { 0 })
      defer { try? upgraded.close() }
      #expect(try upgraded.latestReplays(to: "https://a.example/n").isEmpty)
      #expect(try upgraded.lostNotifications(signedFrom: nil).count == 4)
      let attempt = try upgraded.beginReplay(
        uuid: "n-3", destination: "https://a.example/n", sentAt: 5)
      #expect(try upgraded.latestReplays(to: "https://a.example/n")["n-3"]?.id == attempt)
    }
  }
}
