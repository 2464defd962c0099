import Foundation
import MigrationStore
import Testing

/// Schema version 16 (feed health, invalid notifications, delivery states, unclaimed customers)
/// applied to a store of version 15 holding a refresh under way: nothing due is lost, lost
/// notifications found before stay reported as lost, and the new reasons and tables take rows.
/// Own-code evidence: both sides are this project's SQL.
@Suite("MigrationStore schema 16")
struct AuditSchemaTests {
  @Test("a store of version 15 keeps its due customers and lost notifications through the upgrade")
  func upgrade() throws {
    try TemporaryDirectory.with { directory in
      let path = directory + "/state.sqlite"
      let old = try SQLiteDatabase(location: .path(path))
      let fifteen = try SchemaMigrator(migrations: Array(MigrationStore.migrations.prefix(15)))
      try fifteen.migrate(old, now: { 0 })
      try old.execute(
        """
        INSERT INTO customers (id, customer_key, environment, walk_transaction_id, history_complete,
          statuses_complete, updated_ms) VALUES (7, 'k7', 'Production', '1000', 1, 1, 0);
        INSERT INTO refresh_queue (customer_id, priority, reason, detail, data_ms, enqueued_ms,
          history_done, attempts, last_error)
          VALUES (7, 1, 'notification', 'a DID_RENEW notification', 5, 6, 1, 2, 'timed out');
        INSERT INTO lost_notifications (notification_uuid, environment, notification_type,
          found_ms, signed_payload) VALUES ('u1', 'Production', 'DID_RENEW', 9, 'jws');
        """)
      try old.close()

      let store = try MigrationStore(path: path, now: { 10 })
      let queue = try store.refreshQueue()
      #expect(queue.count == 1)
      #expect(queue.first?.reason == .notification && queue.first?.attempts == 2)
      #expect(queue.first?.isHistoryDone == true && queue.first?.lastError == "timed out")
      // Found before: reported as lost, as it was.
      try store.claimUnreportedLostNotifications(for: "run-1")
      let lost = try store.lostNotifications(reportedBy: "run-1")
      #expect(lost.map(\.notification.uuid) == ["u1"])
      #expect(lost.first?.notification.delivery == .lost)
      // The new reasons are taken.
      #expect(
        try store.enqueueRefresh(
          RefreshQueueRow(customerId: 7, reason: .hint, detail: "a hint", dataMilliseconds: 5),
          now: 11) == false)
      try store.noteNotified(customerId: 7, signedMilliseconds: 12)
      var health = FeedHealthRow(environment: "Production")
      health.testResult = .delivered
      health.provenMilliseconds = 12
      try store.saveFeedHealth(health, now: 13)
      #expect(try store.feedHealth(environment: "Production")?.provenMilliseconds == 12)
      try store.close()
    }
  }

  /// Own-code evidence: the store's SQL against rows written directly.
  @Test(
    "a customer outside the store is listed until the store holds it; a notification read while it was outside names its account once it joins; an invalid notification is looked up once"
  )
  func outsideCustomers() throws {
    try TemporaryDirectory.with { directory in
      let path = directory + "/state.sqlite"
      let before = try MigrationStore(path: path, now: { 0 })
      for (key, original) in [("appTx-1", "5001"), ("appTx-2", "5002")] {
        try before.noteUnclaimedCustomer(
          UnclaimedCustomerRow(
            environment: "Production", customerKey: key, originalTransactionId: original,
            appAccountToken: nil, firstSignedMilliseconds: 1, lastSignedMilliseconds: 1,
            notifications: 1, lastType: "SUBSCRIBED/INITIAL_BUY"),
          foundAt: 1)
      }
      try before.storeLostNotification(
        LostNotificationRow(
          uuid: "u1", environment: "Production", type: "DID_RENEW", subtype: nil,
          signedMilliseconds: 5, originalTransactionId: "5001", transactionId: "5001",
          customerId: nil, firstAttemptMilliseconds: 6, lastAttemptMilliseconds: 7,
          lastResult: "TIMED_OUT", signedPayload: "jws", delivery: .lost, failedAttempts: 6),
        foundAt: 2)
      try before.storeInvalidNotification(
        InvalidNotificationRow(
          key: "uuid:x", environment: "Production", reason: "bad signature", type: nil,
          signedMilliseconds: 3, customerId: nil, signedPayload: "a.b.c"),
        foundAt: 3)
      #expect(
        try before.unclaimedCustomers(stillOutside: true).map(\.customerKey) == [
          "appTx-1", "appTx-2",
        ])
      #expect(
        try before.invalidNotificationsToLookUp(environment: "Production").map(\.key) == ["uuid:x"])
      try before.markInvalidNotificationLookedUp(key: "uuid:x", customerId: nil, now: 4)
      #expect(try before.invalidNotificationsToLookUp(environment: "Production").isEmpty)
      try before.close()

      // The customer of 5001 joins account a1, as a backfill of a followed seed stores it.
      let database = try SQLiteDatabase(location: .path(path))
      try database.execute(
        """
        INSERT INTO accounts (account_id, first_ingested_ms) VALUES ('a1', 0);
        INSERT INTO customers (id, customer_key, environment, walk_transaction_id, history_complete,
          statuses_complete, updated_ms) VALUES (9, 'appTx-1', 'Production', '5001', 1, 1, 0);
        INSERT INTO account_customers (account_id, customer_id) VALUES ('a1', 9);
        INSERT INTO transactions (transaction_id, customer_id, original_transaction_id, jws)
          VALUES ('5001', 9, '5001', 'jws');
        """)
      try database.close()
      let store = try MigrationStore(path: path, now: { 10 })
      defer { try? store.close() }
      #expect(try store.unclaimedCustomers(stillOutside: true).map(\.customerKey) == ["appTx-2"])
      #expect(try store.unclaimedCustomers().count == 2, "the history of who was outside is kept")
      let deliveries = try store.lostNotifications(ofAccount: "a1")
      #expect(deliveries.map(\.notification.uuid) == ["u1"])
      #expect(deliveries.first?.customerKey == "appTx-1")
      #expect(deliveries.first?.accounts == ["a1"])
      #expect(try store.lostNotifications(ofAccount: "a2").isEmpty)
    }
  }
}
