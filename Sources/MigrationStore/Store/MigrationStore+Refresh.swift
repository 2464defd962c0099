// MARK: - Refresh: the due queue, the notification feeds, lost notifications

extension MigrationStore {
  // MARK: Feeds

  /// How far the notification history of an environment has been read, if it ever was.
  ///
  /// - Parameter environment: `Production` or `Sandbox`.
  /// - Returns: the feed, or `nil`.
  /// - Throws: `SQLiteError`.
  public func notificationFeed(environment: String) throws -> NotificationFeedRow? {
    try database.firstRow(
      """
      SELECT environment, paged_through_ms, watermark_ms, window_start_ms, window_end_ms, pagination_token, window_pages
      FROM notification_feeds WHERE environment = ?
      """, binding: environment
    ) { row in
      let window = try row.optionalInt64(at: 3).map { start in
        NotificationFeedRow.Window(
          startMilliseconds: start, endMilliseconds: try row.optionalInt64(at: 4) ?? start,
          paginationToken: try row.optionalString(at: 5), pages: try row.int(at: 6))
      }
      return NotificationFeedRow(
        environment: try row.string(at: 0), pagedThroughMilliseconds: try row.int64(at: 1),
        watermarkMilliseconds: try row.int64(at: 2), window: window)
    }
  }

  /// Stores how far an environment's notification history has been read.
  ///
  /// - Parameters:
  ///   - feed: the feed.
  ///   - now: the wall clock (Unix ms).
  /// - Throws: `SQLiteError`.
  public func saveNotificationFeed(_ feed: NotificationFeedRow, now: Int64) throws {
    try database.run(
      """
      INSERT INTO notification_feeds (environment, paged_through_ms, watermark_ms, window_start_ms, window_end_ms,
        pagination_token, window_pages, updated_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (environment) DO UPDATE SET paged_through_ms = excluded.paged_through_ms,
        watermark_ms = excluded.watermark_ms, window_start_ms = excluded.window_start_ms,
        window_end_ms = excluded.window_end_ms, pagination_token = excluded.pagination_token,
        window_pages = excluded.window_pages, updated_ms = excluded.updated_ms
      """,
      binding: feed.environment, feed.pagedThroughMilliseconds, feed.watermarkMilliseconds,
      feed.window?.startMilliseconds, feed.window?.endMilliseconds, feed.window?.paginationToken,
      feed.window?.pages ?? 0, now)
  }

  /// The environments of the store's complete customers, with the earliest instant their
  /// statuses were fetched and how many customers have no known fetch instant (stored before
  /// schema version 4).
  ///
  /// - Returns: per environment, sorted.
  /// - Throws: `SQLiteError`.
  public func customerEnvironments() throws -> [(
    environment: String, earliestFetch: Int64?, unknownFetch: Int
  )] {
    var result: [(environment: String, earliestFetch: Int64?, unknownFetch: Int)] = []
    try database.forEachRow(
      """
      SELECT environment, MIN(statuses_fetched_ms), SUM(statuses_fetched_ms IS NULL)
      FROM customers WHERE history_complete = 1 AND statuses_complete = 1
      GROUP BY environment ORDER BY environment
      """
    ) { row in
      result.append(
        (
          try row.string(at: 0), try row.optionalInt64(at: 1), try row.optionalInt(at: 2) ?? 0
        ))
    }
    return result
  }

  // MARK: Stored states

  /// Status rows stored before schema version 4, whose decoded columns are still empty.
  ///
  /// - Parameter limit: at most this many.
  /// - Returns: the rows' keys and signed values.
  /// - Throws: `SQLiteError`.
  public func statusesWithoutDecodedColumns(limit: Int) throws -> [(
    customerId: Int64, originalTransactionId: String, transactionJWS: String, renewalJWS: String?
  )] {
    var rows:
      [(
        customerId: Int64, originalTransactionId: String, transactionJWS: String,
        renewalJWS: String?
      )] = []
    try database.forEachRow(
      """
      SELECT customer_id, original_transaction_id,
        \(Self.wholeSignedValue("transaction_jws", headerId: "transaction_jws_header_id")),
        \(Self.wholeSignedValue("renewal_jws", headerId: "renewal_jws_header_id"))
      FROM subscription_statuses WHERE signed_ms IS NULL AND transaction_id IS NULL LIMIT ?
      """, binding: limit
    ) { row in
      rows.append(
        (
          try row.int64(at: 0), try row.string(at: 1), try row.string(at: 2),
          try row.optionalString(at: 3)
        ))
    }
    return rows
  }

  /// Fills the decoded columns of a status row stored before schema version 4.
  ///
  /// - Parameters:
  ///   - customerId: the customer.
  ///   - originalTransactionId: the subscription.
  ///   - transactionId: the latest transaction's id.
  ///   - expiresMilliseconds: its expiry.
  ///   - signedMilliseconds: when the status was signed.
  /// - Throws: `SQLiteError`.
  public func fillStatusColumns(
    customerId: Int64, originalTransactionId: String, transactionId: String,
    expiresMilliseconds: Int64?, signedMilliseconds: Int64?
  ) throws {
    try database.run(
      """
      UPDATE subscription_statuses SET transaction_id = ?, expires_ms = ?, signed_ms = ?
      WHERE customer_id = ? AND original_transaction_id = ?
      """,
      binding: transactionId, expiresMilliseconds, signedMilliseconds, customerId,
      originalTransactionId)
  }

  /// The stored statuses that may call for a refresh: active, billing retry and grace period,
  /// of complete customers.
  ///
  /// - Returns: the states, by customer.
  /// - Throws: `SQLiteError`.
  public func timeBoundedStatuses() throws -> [StoredStatusState] {
    var states: [StoredStatusState] = []
    try database.forEachRow(
      """
      SELECT s.customer_id, s.original_transaction_id, s.status, s.expires_ms, s.grace_period_expires_ms, s.signed_ms,
        t.product_id
      FROM subscription_statuses s JOIN customers c ON c.id = s.customer_id
      LEFT JOIN transactions t ON t.transaction_id = s.transaction_id
      WHERE c.history_complete = 1 AND c.statuses_complete = 1 AND s.status IN (1, 3, 4)
      ORDER BY s.customer_id, s.original_transaction_id
      """
    ) { row in
      states.append(
        StoredStatusState(
          customerId: try row.int64(at: 0), originalTransactionId: try row.string(at: 1),
          status: try row.int64(at: 2), expiresMilliseconds: try row.optionalInt64(at: 3),
          gracePeriodExpiresMilliseconds: try row.optionalInt64(at: 4),
          signedMilliseconds: try row.optionalInt64(at: 5), productId: try row.optionalString(at: 6)
        ))
    }
    return states
  }

  /// Complete customers of an environment whose stored data grants something or is bounded in
  /// time — a status active, in billing retry or in the grace period, or a one-time product
  /// owned — with when their statuses were fetched: the customers that may have changed unseen
  /// when the notification history cannot cover the time since.
  ///
  /// - Parameter environment: `Production` or `Sandbox`.
  /// - Returns: customer ids and fetch instants.
  /// - Throws: `SQLiteError`.
  public func customersWithEntitledOrTimeBoundedData(environment: String) throws -> [(
    customerId: Int64, fetchedMilliseconds: Int64?
  )] {
    var rows: [(customerId: Int64, fetchedMilliseconds: Int64?)] = []
    try database.forEachRow(
      """
      SELECT c.id, c.statuses_fetched_ms FROM customers c
      WHERE c.environment = ? AND c.history_complete = 1 AND c.statuses_complete = 1 AND (
        EXISTS (SELECT 1 FROM subscription_statuses s WHERE s.customer_id = c.id AND s.status IN (1, 3, 4))
        OR EXISTS (SELECT 1 FROM transactions t WHERE t.customer_id = c.id AND t.revocation_ms IS NULL
          AND t.type IN ('Non-Consumable', 'Non-Renewing Subscription')))
      ORDER BY c.id
      """, binding: environment
    ) { row in
      rows.append((try row.int64(at: 0), try row.optionalInt64(at: 1)))
    }
    return rows
  }

  /// The store's customer with this `appTransactionId`, or whose stored history holds this
  /// transaction or original transaction id.
  ///
  /// - Parameters:
  ///   - appTransactionId: the customer's app transaction id, if known.
  ///   - ids: transaction or original transaction ids.
  /// - Returns: the customer's row id, or `nil` when the store does not know it.
  /// - Throws: `SQLiteError`.
  public func customer(appTransactionId: String?, orOwningAnyOf ids: [String]) throws -> Int64? {
    // A customer's key is its appTransactionId whenever its transactions carry one: the unique
    // index on the key finds it without a scan (one lookup per notification read).
    if let appTransactionId,
      let id = try database.firstRow(
        "SELECT id FROM customers WHERE customer_key = ?", binding: appTransactionId,
        decode: { try $0.int64(at: 0) })
    {
      return id
    }
    for id in ids {
      if let owner = try customerOwning(id) { return owner }
    }
    return nil
  }

  /// When a customer's statuses were last fetched (App Store clock, Unix ms), if recorded.
  ///
  /// - Parameter customerId: the customer.
  /// - Returns: the instant, or `nil`.
  /// - Throws: `SQLiteError`.
  public func statusesFetched(customerId: Int64) throws -> Int64? {
    try database.firstRow(
      "SELECT statuses_fetched_ms FROM customers WHERE id = ?", binding: customerId,
      decode: { try $0.optionalInt64(at: 0) }) ?? nil
  }

  // MARK: The due queue

  /// Puts a customer on the due queue, or keeps it there with the more urgent reason.
  ///
  /// - Parameters:
  ///   - row: the customer and why.
  ///   - now: the wall clock (Unix ms).
  /// - Returns: whether the customer was not due before.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func enqueueRefresh(_ row: RefreshQueueRow, now: Int64) throws -> Bool {
    let existing = try database.firstRow(
      "SELECT priority FROM refresh_queue WHERE customer_id = ?", binding: row.customerId,
      decode: { try $0.int(at: 0) })
    if let existing {
      guard row.reason.priority < existing else { return false }
      try database.run(
        "UPDATE refresh_queue SET priority = ?, reason = ?, detail = ? WHERE customer_id = ?",
        binding: row.reason.priority, row.reason.rawValue, row.detail, row.customerId)
      return false
    }
    try database.run(
      """
      INSERT INTO refresh_queue (customer_id, priority, reason, detail, data_ms, enqueued_ms)
      VALUES (?, ?, ?, ?, ?, ?)
      """,
      binding: row.customerId, row.reason.priority, row.reason.rawValue, row.detail,
      row.dataMilliseconds, now)
    return true
  }

  /// The due queue in the order the refresh works it: most urgent reason first, then the oldest
  /// data (unknown ages first), then by customer.
  ///
  /// - Returns: the rows.
  /// - Throws: `SQLiteError`.
  public func refreshQueue() throws -> [RefreshQueueRow] {
    var rows: [RefreshQueueRow] = []
    try database.forEachRow(
      """
      SELECT customer_id, reason, detail, data_ms, history_done, attempts, last_error FROM refresh_queue
      ORDER BY priority, data_ms IS NOT NULL, data_ms, customer_id
      """
    ) { row in
      rows.append(
        RefreshQueueRow(
          customerId: try row.int64(at: 0),
          reason: RefreshQueueRow.Reason(rawValue: try row.string(at: 1)) ?? .notification,
          detail: try row.string(at: 2), dataMilliseconds: try row.optionalInt64(at: 3),
          isHistoryDone: try row.bool(at: 4), attempts: try row.int(at: 5),
          lastError: try row.optionalString(at: 6)))
    }
    return rows
  }

  /// Why each due customer is due, for the comparison: such a customer's stored data is known to
  /// be out of date.
  ///
  /// - Returns: one sentence per due customer id.
  /// - Throws: `SQLiteError`.
  public func pendingRefreshes() throws -> [Int64: String] {
    var pending: [Int64: String] = [:]
    try database.forEachRow("SELECT customer_id, detail, last_error FROM refresh_queue") { row in
      let failure = try row.optionalString(at: 2).map { "; the last refresh failed: \($0)" } ?? ""
      pending[try row.int64(at: 0)] = try row.string(at: 1) + failure
    }
    return pending
  }

  /// Stores one page of a due customer's incremental history walk with its revision, and, on
  /// the last page, that the walk is done — together, so a resumed refresh goes on from exactly
  /// here. The customer's history stays complete throughout: it was complete as of its last
  /// fetch, and the customer stays due until its statuses are fetched again.
  ///
  /// - Parameters:
  ///   - rows: the page's transactions (new and changed ones).
  ///   - customerId: the customer.
  ///   - revision: the page's revision.
  ///   - isLast: whether `hasMore` was false.
  ///   - now: the wall clock (Unix ms).
  /// - Throws: `SQLiteError`.
  public func storeRefreshPage(
    _ rows: [TransactionRow], customerId: Int64, revision: String?, isLast: Bool, now: Int64
  ) throws {
    try writeTransaction {
      try upsertTransactions(rows, customerId: customerId)
      try database.run(
        """
        UPDATE customers SET history_revision = ?, history_pages = history_pages + 1, updated_ms = ? WHERE id = ?
        """,
        binding: revision, now, customerId)
      if isLast {
        try database.run(
          "UPDATE refresh_queue SET history_done = 1 WHERE customer_id = ?", binding: customerId)
      }
    }
  }

  /// Forgets a due customer's stored revision (the App Store refused it): its refresh walks the
  /// whole history again, replacing stored copies with newer ones.
  ///
  /// - Parameters:
  ///   - customerId: the customer.
  ///   - now: the wall clock (Unix ms).
  /// - Throws: `SQLiteError`.
  public func restartRefreshHistory(customerId: Int64, now: Int64) throws {
    try writeTransaction {
      try database.run(
        "UPDATE customers SET history_revision = NULL, updated_ms = ? WHERE id = ?", binding: now,
        customerId)
      try database.run(
        "UPDATE refresh_queue SET history_done = 0 WHERE customer_id = ?", binding: customerId)
    }
  }

  /// Stores a due customer's new statuses and takes it off the queue, together.
  ///
  /// - Parameters:
  ///   - rows: every status entry.
  ///   - customerId: the customer.
  ///   - fetchedAt: the App Store's clock when they were fetched (Unix ms).
  ///   - now: the wall clock (Unix ms).
  /// - Throws: `SQLiteError`.
  public func completeRefresh(
    statuses rows: [StatusRow], customerId: Int64, fetchedAt: Int64, now: Int64
  ) throws {
    try writeTransaction {
      try replaceStatuses(rows, customerId: customerId, fetchedAt: fetchedAt, now: now)
      try database.run("DELETE FROM refresh_queue WHERE customer_id = ?", binding: customerId)
    }
  }

  /// Records that a due customer's refresh failed; it stays due.
  ///
  /// - Parameters:
  ///   - customerId: the customer.
  ///   - error: what went wrong.
  /// - Throws: `SQLiteError`.
  public func recordRefreshFailure(customerId: Int64, error: String) throws {
    try database.run(
      "UPDATE refresh_queue SET attempts = attempts + 1, last_error = ? WHERE customer_id = ?",
      binding: error, customerId)
  }

  // MARK: Lost notifications

  /// Records a notification whose delivery failed, or what a later sighting shows of it: its
  /// attempts and where its delivery stands. A delivery once final (lost or delivered late)
  /// never goes back to pending.
  ///
  /// - Parameters:
  ///   - row: the notification.
  ///   - foundAt: the wall clock (Unix ms).
  /// - Returns: where its delivery stood before, or `nil` when it was new to the store.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func storeLostNotification(_ row: LostNotificationRow, foundAt: Int64) throws
    -> LostNotificationRow.Delivery?
  {
    let before = try database.firstRow(
      "SELECT delivery FROM lost_notifications WHERE notification_uuid = ?", binding: row.uuid,
      decode: { LostNotificationRow.Delivery(rawValue: try $0.string(at: 0)) ?? .lost })
    if let before {
      guard before == .pending else { return before }
      try database.run(
        """
        UPDATE lost_notifications SET delivery = ?, attempts = max(attempts, ?),
          last_attempt_ms = coalesce(?, last_attempt_ms), last_result = coalesce(?, last_result),
          final_ms = CASE WHEN ? = 'pending' THEN NULL ELSE ? END
        WHERE notification_uuid = ?
        """,
        binding: row.delivery.rawValue, row.failedAttempts, row.lastAttemptMilliseconds,
        row.lastResult, row.delivery.rawValue, foundAt, row.uuid)
      return before
    }
    try database.run(
      """
      INSERT INTO lost_notifications (notification_uuid, environment, notification_type, subtype, signed_ms,
        original_transaction_id, transaction_id, customer_id, first_attempt_ms, last_attempt_ms, last_result,
        found_ms, signed_payload, delivery, attempts, final_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      binding: row.uuid, row.environment, row.type, row.subtype, row.signedMilliseconds,
      row.originalTransactionId, row.transactionId, row.customerId, row.firstAttemptMilliseconds,
      row.lastAttemptMilliseconds, row.lastResult, foundAt, row.signedPayload,
      row.delivery.rawValue, row.failedAttempts, row.delivery == .pending ? nil : foundAt)
    return nil
  }

  /// Marks a pending delivery as delivered late: the history no longer lists it among failures.
  ///
  /// - Parameters:
  ///   - uuid: the notification.
  ///   - now: the wall clock (Unix ms).
  /// - Throws: `SQLiteError`.
  public func markDeliveredLate(uuid: String, now: Int64) throws {
    try database.run(
      """
      UPDATE lost_notifications SET delivery = 'delivered_late', final_ms = ?
      WHERE notification_uuid = ? AND delivery = 'pending'
      """, binding: now, uuid)
  }

  /// The pending deliveries of an environment: their UUIDs and `signedDate`s, oldest first.
  ///
  /// - Parameter environment: `Production` or `Sandbox`.
  /// - Returns: the notifications.
  /// - Throws: `SQLiteError`.
  public func pendingDeliveries(environment: String) throws -> [(
    uuid: String, signedMilliseconds: Int64?
  )] {
    var rows: [(uuid: String, signedMilliseconds: Int64?)] = []
    try database.forEachRow(
      """
      SELECT notification_uuid, signed_ms FROM lost_notifications
      WHERE environment = ? AND delivery = 'pending' ORDER BY signed_ms, notification_uuid
      """, binding: environment
    ) { rows.append((try $0.string(at: 0), try $0.optionalInt64(at: 1))) }
    return rows
  }

  /// Gives `runId` every lost notification (delivery final and failed) no complete run lists
  /// yet: those no run has claimed, and those claimed by a run that never completed (killed
  /// while it wrote its report or its alerts), so a notification is handed over by a run that
  /// reached someone. Pending ones wait until they are final.
  ///
  /// - Parameter runId: the run.
  /// - Throws: `SQLiteError`.
  public func claimUnreportedLostNotifications(for runId: String) throws {
    try database.run(
      """
      UPDATE lost_notifications SET reported_run_id = ?
      WHERE delivery = 'lost' AND (reported_run_id IS NULL
        OR reported_run_id IN (SELECT id FROM runs
          WHERE (reported_ms IS NULL OR ended_ms IS NULL) AND id <> ?))
      """,
      binding: runId, runId)
  }

  /// The lost notifications a run reports, with the accounts of their customers.
  ///
  /// - Parameter runId: the run.
  /// - Returns: the notifications in time order, each with the accounts linked to its customer.
  /// - Throws: `SQLiteError`.
  public func lostNotifications(reportedBy runId: String) throws -> [LostNotificationListing] {
    try lostNotifications(where: "l.reported_run_id = ?", binding: runId)
  }

  /// The deliveries Apple may still retry, with the accounts of their customers.
  ///
  /// - Returns: the notifications in time order.
  /// - Throws: `SQLiteError`.
  public func pendingNotifications() throws -> [LostNotificationListing] {
    try lostNotifications(where: "l.delivery = 'pending'")
  }
}
