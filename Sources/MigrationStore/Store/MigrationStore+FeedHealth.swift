// MARK: - The change feed's health: test notifications, the renewal check, the sweep, data ages

extension MigrationStore {
  // MARK: Feed health

  /// What the store knows of an environment's change feed, if anything.
  ///
  /// - Parameter environment: `Production` or `Sandbox`.
  /// - Returns: the row, or `nil`.
  /// - Throws: `SQLiteError`.
  public func feedHealth(environment: String) throws -> FeedHealthRow? {
    try database.firstRow(
      """
      SELECT test_requested_ms, test_token, test_uuid, test_result, test_detail, test_seen_ms,
        proven_ms, check_ms, check_start_ms, check_end_ms, check_expected, check_missing,
        test_looked_ms, check_failed_ms, check_failed_detail
      FROM feed_health WHERE environment = ?
      """, binding: environment
    ) { row in
      var health = FeedHealthRow(environment: environment)
      health.testRequestedMilliseconds = try row.optionalInt64(at: 0)
      health.testToken = try row.optionalString(at: 1)
      health.testUUID = try row.optionalString(at: 2)
      health.testResult = try row.optionalString(at: 3).flatMap(FeedHealthRow.TestResult.init)
      health.testDetail = try row.optionalString(at: 4)
      health.testSeenMilliseconds = try row.optionalInt64(at: 5)
      health.provenMilliseconds = try row.optionalInt64(at: 6)
      health.testLookedMilliseconds = try row.optionalInt64(at: 12)
      health.checkFailedMilliseconds = try row.optionalInt64(at: 13)
      health.checkFailedDetail = try row.optionalString(at: 14)
      if let checked = try row.optionalInt64(at: 7) {
        health.check = FeedHealthRow.Check(
          checkedMilliseconds: checked, startMilliseconds: try row.optionalInt64(at: 8) ?? 0,
          endMilliseconds: try row.optionalInt64(at: 9) ?? 0,
          expected: try row.optionalInt(at: 10) ?? 0, missing: try row.optionalInt(at: 11) ?? 0)
      }
      return health
    }
  }

  /// Stores what is known of an environment's change feed.
  ///
  /// - Parameters:
  ///   - health: the row.
  ///   - now: the wall clock (Unix ms).
  /// - Throws: `SQLiteError`.
  public func saveFeedHealth(_ health: FeedHealthRow, now: Int64) throws {
    try database.run(
      """
      INSERT INTO feed_health (environment, test_requested_ms, test_token, test_uuid, test_result,
        test_detail, test_seen_ms, proven_ms, check_ms, check_start_ms, check_end_ms, check_expected,
        check_missing, test_looked_ms, check_failed_ms, check_failed_detail, updated_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (environment) DO UPDATE SET test_requested_ms = excluded.test_requested_ms,
        test_token = excluded.test_token, test_uuid = excluded.test_uuid,
        test_result = excluded.test_result, test_detail = excluded.test_detail,
        test_seen_ms = excluded.test_seen_ms, proven_ms = excluded.proven_ms,
        check_ms = excluded.check_ms, check_start_ms = excluded.check_start_ms,
        check_end_ms = excluded.check_end_ms, check_expected = excluded.check_expected,
        check_missing = excluded.check_missing, test_looked_ms = excluded.test_looked_ms,
        check_failed_ms = excluded.check_failed_ms,
        check_failed_detail = excluded.check_failed_detail, updated_ms = excluded.updated_ms
      """,
      binding: health.environment, health.testRequestedMilliseconds, health.testToken,
      health.testUUID, health.testResult?.rawValue, health.testDetail, health.testSeenMilliseconds,
      health.provenMilliseconds, health.check?.checkedMilliseconds,
      health.check?.startMilliseconds, health.check?.endMilliseconds, health.check?.expected,
      health.check?.missing, health.testLookedMilliseconds, health.checkFailedMilliseconds,
      health.checkFailedDetail, now)
  }

  /// Per environment, the instant its App Store data is current through (the refresh's
  /// watermark).
  ///
  /// - Returns: Unix ms by environment.
  /// - Throws: `SQLiteError`.
  public func watermarks() throws -> [String: Int64] {
    var watermarks: [String: Int64] = [:]
    try database.forEachRow("SELECT environment, watermark_ms FROM notification_feeds") {
      watermarks[try $0.string(at: 0)] = try $0.int64(at: 1)
    }
    return watermarks
  }

  /// Records that a notification named a customer: the renewal check counts a customer named
  /// after its data was fetched as notified.
  ///
  /// - Parameters:
  ///   - customerId: the customer.
  ///   - signedMilliseconds: the notification's `signedDate` (Unix ms).
  /// - Throws: `SQLiteError`.
  public func noteNotified(customerId: Int64, signedMilliseconds: Int64) throws {
    try database.run(
      """
      UPDATE customers SET notified_ms = ? WHERE id = ? AND (notified_ms IS NULL OR notified_ms < ?)
      """, binding: signedMilliseconds, customerId, signedMilliseconds)
  }

  /// The renewal check of one span: the subscriptions the stored data expected to renew in it
  /// (active, auto-renewing, expiring in `[start, end]` after their data was fetched), and how
  /// many of their customers no notification named since the data was fetched. Apple sends a
  /// notification for every renewal, failed renewal and expiry, so a feed that lists what Apple
  /// sends names every one of them.
  ///
  /// - Parameters:
  ///   - environment: `Production` or `Sandbox`.
  ///   - start: the span's start (Unix ms).
  ///   - end: the span's end (Unix ms).
  ///   - tolerance: a notification signed this long before the data was fetched still counts
  ///     (the clocks may disagree a little).
  /// - Returns: the expected renewals (by customer) and the customers not named.
  /// - Throws: `SQLiteError`.
  public func renewalCheck(environment: String, start: Int64, end: Int64, tolerance: Int64)
    throws -> (expected: Int, missing: Int)
  {
    try database.firstRow(
      """
      SELECT count(*), coalesce(sum(notified_ms IS NULL OR notified_ms < fetched - ?), 0) FROM (
        SELECT DISTINCT c.id, c.notified_ms, c.statuses_fetched_ms AS fetched
        FROM subscription_statuses s JOIN customers c ON c.id = s.customer_id
        WHERE c.environment = ? AND c.history_complete = 1 AND c.statuses_complete = 1
          AND c.statuses_fetched_ms IS NOT NULL AND s.status = 1 AND s.auto_renew_status = 1
          AND s.expires_ms >= ? AND s.expires_ms <= ? AND s.expires_ms > c.statuses_fetched_ms)
      """, binding: tolerance, environment, start, end
    ) { (try $0.int(at: 0), try $0.int(at: 1)) } ?? (0, 0)
  }

  /// The complete customers of an environment whose App Store data was fetched before
  /// `fetchedBefore` (or at an unrecorded instant), oldest first: the rolling sweep's
  /// candidates when the feed cannot vouch for the time since.
  ///
  /// - Parameters:
  ///   - environment: `Production` or `Sandbox`.
  ///   - fetchedBefore: the bound (App Store clock, Unix ms).
  /// - Returns: customer ids and fetch instants, oldest first (unrecorded first of all).
  /// - Throws: `SQLiteError`.
  public func customersFetched(environment: String, before fetchedBefore: Int64) throws -> [(
    customerId: Int64, fetchedMilliseconds: Int64?
  )] {
    var rows: [(customerId: Int64, fetchedMilliseconds: Int64?)] = []
    try database.forEachRow(
      """
      SELECT id, statuses_fetched_ms FROM customers
      WHERE environment = ? AND history_complete = 1 AND statuses_complete = 1
        AND (statuses_fetched_ms IS NULL OR statuses_fetched_ms < ?)
      ORDER BY statuses_fetched_ms IS NOT NULL, statuses_fetched_ms, id
      """, binding: environment, fetchedBefore
    ) { rows.append((try $0.int64(at: 0), try $0.optionalInt64(at: 1))) }
    return rows
  }

  /// How old the App Store data of the complete customers is: how many, the oldest and the
  /// median instant their data holds through, and how many hold through an instant before
  /// `bound` (or an unrecorded one). A customer's data holds through its fetch, or through its
  /// environment's watermark when that is later (the change feed was read to there, vouched for
  /// it, and named no change it has not been asked about) — what the comparison reads it by.
  ///
  /// - Parameters:
  ///   - environment: one environment, or `nil` for all.
  ///   - bound: the instant (Unix ms) before which data counts as older than the bound.
  /// - Returns: the figures; `nil` instants when no customer has a recorded one.
  /// - Throws: `SQLiteError`.
  public func dataAges(environment: String? = nil, olderThan bound: Int64) throws -> (
    customers: Int, oldest: Int64?, median: Int64?, older: Int, unrecorded: Int
  ) {
    let held = """
      SELECT CASE WHEN f.watermark_ms > c.statuses_fetched_ms THEN f.watermark_ms
        ELSE c.statuses_fetched_ms END AS through
      FROM customers c LEFT JOIN notification_feeds f ON f.environment = c.environment
      WHERE c.history_complete = 1 AND c.statuses_complete = 1
      """ + (environment == nil ? "" : " AND c.environment = ?")
    let countsSQL = """
      SELECT count(*), min(through), coalesce(sum(through IS NULL OR through < ?), 0),
        coalesce(sum(through IS NULL), 0)
      FROM (\(held))
      """
    let decode = { (row: SQLiteRow) in
      (try row.int(at: 0), try row.optionalInt64(at: 1), try row.int(at: 2), try row.int(at: 3))
    }
    let counts =
      try environment.map { try database.firstRow(countsSQL, binding: bound, $0, decode: decode) }
      ?? database.firstRow(countsSQL, binding: bound, decode: decode)
    let (customers, oldest, older, unrecorded) = counts ?? (0, nil, 0, 0)
    let recorded = customers - unrecorded
    guard recorded > 0 else { return (customers, nil, nil, older, unrecorded) }
    let medianSQL =
      "SELECT through FROM (\(held)) WHERE through IS NOT NULL ORDER BY through LIMIT 1 OFFSET ?"
    let offset = Int64(recorded / 2)
    let median =
      try environment.map {
        try database.firstRow(medianSQL, binding: $0, offset) { try $0.int64(at: 0) }
      } ?? database.firstRow(medianSQL, binding: offset) { try $0.int64(at: 0) }
    return (customers, oldest, median, older, unrecorded)
  }

  // MARK: Invalid notifications

  /// Records a notification that failed verification (once; a later sighting changes nothing).
  ///
  /// - Parameters:
  ///   - row: the notification.
  ///   - foundAt: the wall clock (Unix ms).
  /// - Returns: whether it was new to the store.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func storeInvalidNotification(_ row: InvalidNotificationRow, foundAt: Int64) throws
    -> Bool
  {
    let known =
      try database.firstRow(
        "SELECT 1 FROM invalid_notifications WHERE notification_key = ?", binding: row.key
      ) { _ in true } ?? false
    guard !known else { return false }
    try database.run(
      """
      INSERT INTO invalid_notifications (notification_key, environment, reason, notification_type,
        signed_ms, customer_id, found_ms, signed_payload)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """,
      binding: row.key, row.environment, row.reason, row.type, row.signedMilliseconds,
      row.customerId, foundAt, row.signedPayload)
    return true
  }

  /// The invalid notifications of an environment whose payload named no customer the store
  /// held when they were read, and that the App Store has not been asked about yet.
  ///
  /// - Parameter environment: `Production` or `Sandbox`.
  /// - Returns: their keys, reasons and payloads as received, oldest first.
  /// - Throws: `SQLiteError`.
  public func invalidNotificationsToLookUp(environment: String) throws -> [(
    key: String, reason: String, signedPayload: String
  )] {
    var rows: [(key: String, reason: String, signedPayload: String)] = []
    try database.forEachRow(
      """
      SELECT notification_key, reason, signed_payload FROM invalid_notifications
      WHERE environment = ? AND customer_id IS NULL AND looked_up_ms IS NULL
      ORDER BY signed_ms, notification_key
      """, binding: environment
    ) { rows.append((try $0.string(at: 0), try $0.string(at: 1), try $0.string(at: 2))) }
    return rows
  }

  /// Records that the App Store was asked about an invalid notification's transaction (or that
  /// there is nothing to ask), and the store's customer it turned out to name, if any.
  ///
  /// - Parameters:
  ///   - key: the notification's key.
  ///   - customerId: the store's customer, if it holds the one named.
  ///   - now: the wall clock (Unix ms).
  /// - Throws: `SQLiteError`.
  public func markInvalidNotificationLookedUp(key: String, customerId: Int64?, now: Int64) throws {
    try database.run(
      """
      UPDATE invalid_notifications SET looked_up_ms = ?, customer_id = coalesce(?, customer_id)
      WHERE notification_key = ?
      """, binding: now, customerId, key)
  }

  /// Gives every invalid notification no run has reported yet to `runId`.
  ///
  /// - Parameter runId: the run.
  /// - Throws: `SQLiteError`.
  public func claimUnreportedInvalidNotifications(for runId: String) throws {
    try database.run(
      "UPDATE invalid_notifications SET reported_run_id = ? WHERE reported_run_id IS NULL",
      binding: runId)
  }

  /// The invalid notifications a run reports, in time order.
  ///
  /// - Parameter runId: the run.
  /// - Returns: the rows.
  /// - Throws: `SQLiteError`.
  public func invalidNotifications(reportedBy runId: String) throws -> [InvalidNotificationRow] {
    var rows: [InvalidNotificationRow] = []
    try database.forEachRow(
      """
      SELECT notification_key, environment, reason, notification_type, signed_ms, customer_id,
        signed_payload
      FROM invalid_notifications WHERE reported_run_id = ? ORDER BY signed_ms, notification_key
      """, binding: runId
    ) { row in
      rows.append(
        InvalidNotificationRow(
          key: try row.string(at: 0), environment: try row.string(at: 1),
          reason: try row.string(at: 2), type: try row.optionalString(at: 3),
          signedMilliseconds: try row.optionalInt64(at: 4),
          customerId: try row.optionalInt64(at: 5),
          signedPayload: try row.string(at: 6)))
    }
    return rows
  }

  // MARK: Customers outside the store

  /// Records a notification about a customer no account of the store holds: the customer is
  /// added, or its count and dates are brought up to date.
  ///
  /// - Parameters:
  ///   - row: the customer as this notification shows it (`notifications` is ignored: one is
  ///     added).
  ///   - foundAt: the wall clock (Unix ms).
  /// - Throws: `SQLiteError`.
  public func noteUnclaimedCustomer(_ row: UnclaimedCustomerRow, foundAt: Int64) throws {
    try database.run(
      """
      INSERT INTO unclaimed_customers (environment, customer_key, original_transaction_id,
        app_account_token, first_signed_ms, last_signed_ms, notifications, last_type, found_ms)
      VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)
      ON CONFLICT (environment, customer_key) DO UPDATE SET
        original_transaction_id = coalesce(excluded.original_transaction_id, original_transaction_id),
        app_account_token = coalesce(excluded.app_account_token, app_account_token),
        first_signed_ms = min(coalesce(first_signed_ms, excluded.first_signed_ms), excluded.first_signed_ms),
        last_signed_ms = max(coalesce(last_signed_ms, excluded.last_signed_ms), excluded.last_signed_ms),
        notifications = notifications + 1,
        last_type = CASE WHEN excluded.last_signed_ms >= coalesce(last_signed_ms, 0)
          THEN excluded.last_type ELSE last_type END
      """,
      binding: row.environment, row.customerKey, row.originalTransactionId, row.appAccountToken,
      row.firstSignedMilliseconds, row.lastSignedMilliseconds, row.lastType, foundAt)
  }

  /// Records that a token mapping led an unclaimed customer to an account.
  ///
  /// - Parameters:
  ///   - environment: the customer's environment.
  ///   - customerKey: the customer.
  ///   - accountId: the account.
  /// - Throws: `SQLiteError`.
  public func claimUnclaimedCustomer(environment: String, customerKey: String, accountId: String)
    throws
  {
    try database.run(
      """
      UPDATE unclaimed_customers SET claimed_account_id = ? WHERE environment = ? AND customer_key = ?
      """, binding: accountId, environment, customerKey)
  }

  /// Every customer outside the store a notification named, by environment and key.
  ///
  /// - Parameter stillOutside: only those no account claims now: not led to an account by a
  ///   token mapping, and not held by the store since (a later legacy input, or a team-table id,
  ///   may have brought the customer in).
  /// - Returns: the rows.
  /// - Throws: `SQLiteError`.
  public func unclaimedCustomers(stillOutside: Bool = false) throws -> [UnclaimedCustomerRow] {
    var rows: [UnclaimedCustomerRow] = []
    let condition =
      stillOutside
      ? """
      WHERE u.claimed_account_id IS NULL
        AND NOT EXISTS (SELECT 1 FROM customers c WHERE c.customer_key = u.customer_key)
        AND NOT EXISTS (SELECT 1 FROM transactions t
          WHERE t.original_transaction_id = u.original_transaction_id)
      """ : ""
    try database.forEachRow(
      """
      SELECT environment, customer_key, original_transaction_id, app_account_token, first_signed_ms,
        last_signed_ms, notifications, last_type, claimed_account_id
      FROM unclaimed_customers u \(condition) ORDER BY environment, customer_key
      """
    ) { row in
      rows.append(
        UnclaimedCustomerRow(
          environment: try row.string(at: 0), customerKey: try row.string(at: 1),
          originalTransactionId: try row.optionalString(at: 2),
          appAccountToken: try row.optionalString(at: 3),
          firstSignedMilliseconds: try row.optionalInt64(at: 4),
          lastSignedMilliseconds: try row.optionalInt64(at: 5), notifications: try row.int(at: 6),
          lastType: try row.optionalString(at: 7), claimedAccountId: try row.optionalString(at: 8)))
    }
    return rows
  }
}
