import Foundation
import MigrationStore
import Testing

/// Schema version 11 (feed health, invalid notifications, delivery states, unclaimed customers)
/// applied to a store of version 10 holding a refresh under way: nothing due is lost, lost
/// notifications found before stay reported as lost, and the new reasons and tables take rows.
/// Own-code evidence: both sides are this project's SQL.
@Suite("MigrationStore schema 11")
struct AuditSchemaTests {
  @Test("a store of version 10 keeps its due customers and lost notifications through the upgrade")
  func upgrade() throws {
    try TemporaryDirectory.with { directory in
      let path = directory + "/state.sqlite"
      let old = try SQLiteDatabase(location: .path(path))
      let ten = try SchemaMigrator(migrations: Array(MigrationStore.migrations.prefix(10)))
      try ten.migrate(old, now: { 0 })
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
}
