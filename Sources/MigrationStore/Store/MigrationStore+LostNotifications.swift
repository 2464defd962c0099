// MARK: - Listing lost notifications, and the journal of replaying them

extension MigrationStore {
  /// The columns every listing of lost notifications reads, in ``LostNotificationListing``'s
  /// order, joined to the customer's key and accounts; the condition follows.
  ///
  /// A notification read while its customer was outside the store names it by its original
  /// transaction id: a customer followed into an account since is found through it
  /// (`resolved_customer_id`).
  private static let lostNotificationQuery = """
    SELECT l.notification_uuid, l.environment, l.notification_type, l.subtype, l.signed_ms, l.original_transaction_id,
      l.transaction_id, l.resolved_customer_id, l.first_attempt_ms, l.last_attempt_ms, l.last_result, l.signed_payload,
      c.customer_key, (SELECT group_concat(account_id, ' ') FROM
        (SELECT account_id FROM account_customers a WHERE a.customer_id = l.resolved_customer_id
         ORDER BY account_id)),
      l.delivery, l.attempts, l.reported_run_id
    FROM (
      SELECT *, coalesce(customer_id, (SELECT t.customer_id FROM transactions t
        WHERE t.original_transaction_id = lost_notifications.original_transaction_id LIMIT 1))
        AS resolved_customer_id
      FROM lost_notifications
    ) l LEFT JOIN customers c ON c.id = l.resolved_customer_id
    """

  /// Failed deliveries matching a condition on `l` (the `lost_notifications` row, with
  /// `resolved_customer_id`), in the order they were signed.
  func lostNotifications<each Value: SQLiteBindable>(
    where condition: String, binding values: repeat each Value
  ) throws -> [LostNotificationListing] {
    var result: [LostNotificationListing] = []
    try database.forEachRow(
      Self.lostNotificationQuery + " WHERE " + condition
        + " ORDER BY l.signed_ms, l.notification_uuid",
      binding: repeat each values
    ) { row in
      let notification = LostNotificationRow(
        uuid: try row.string(at: 0), environment: try row.string(at: 1),
        type: try row.string(at: 2),
        subtype: try row.optionalString(at: 3), signedMilliseconds: try row.optionalInt64(at: 4),
        originalTransactionId: try row.optionalString(at: 5),
        transactionId: try row.optionalString(at: 6), customerId: try row.optionalInt64(at: 7),
        firstAttemptMilliseconds: try row.optionalInt64(at: 8),
        lastAttemptMilliseconds: try row.optionalInt64(at: 9),
        lastResult: try row.optionalString(at: 10), signedPayload: try row.string(at: 11),
        delivery: LostNotificationRow.Delivery(rawValue: try row.string(at: 14)) ?? .lost,
        failedAttempts: try row.int(at: 15), reportedRunId: try row.optionalString(at: 16))
      let accounts = (try row.optionalString(at: 13) ?? "").split(separator: " ").map(String.init)
      result.append(
        LostNotificationListing(
          notification: notification, customerKey: try row.optionalString(at: 12),
          accounts: accounts, reportedRunId: notification.reportedRunId))
    }
    return result
  }

  /// The deliveries to an account's customers that failed for good or that Apple may still
  /// retry — lost or pending, not those delivered late — whichever run reported them (or none
  /// yet): what `explain` shows.
  ///
  /// - Parameter accountId: the account, by its exact bytes.
  /// - Returns: the notifications in the order they were signed.
  /// - Throws: `SQLiteError`.
  public func lostNotifications(ofAccount accountId: String) throws -> [LostNotificationListing] {
    try lostNotifications(
      where: """
        l.delivery IN ('lost', 'pending') AND l.resolved_customer_id IN
          (SELECT customer_id FROM account_customers WHERE account_id = ?)
        """,
      binding: accountId)
  }

  /// Every lost notification the store holds, or those signed at or after an instant: the
  /// deliveries Apple has given up on (not those it may still retry, which a replay would
  /// duplicate, nor those delivered late).
  ///
  /// - Parameter signedFrom: the earliest signing instant (Unix ms) to list, or `nil` for all;
  ///   a notification without a signing instant is listed only when this is `nil`.
  /// - Returns: the notifications in the order they were signed.
  /// - Throws: `SQLiteError`.
  public func lostNotifications(signedFrom: Int64?) throws -> [LostNotificationListing] {
    guard let signedFrom else { return try lostNotifications(where: "l.delivery = 'lost'") }
    return try lostNotifications(
      where: "l.delivery = 'lost' AND l.signed_ms >= ?", binding: signedFrom)
  }

  // MARK: The replay journal

  /// The latest attempt to send each lost notification to a destination, by notification.
  ///
  /// - Parameter destination: the endpoint, as journaled.
  /// - Returns: the latest attempt per `notificationUUID`; a notification never sent there is
  ///   absent.
  /// - Throws: `SQLiteError`.
  public func latestReplays(to destination: String) throws -> [String: NotificationReplayRow] {
    var latest: [String: NotificationReplayRow] = [:]
    try database.forEachRow(
      """
      SELECT id, notification_uuid, destination, state, sent_ms, answered_ms, http_status, error
      FROM notification_replays WHERE destination = ? ORDER BY id
      """, binding: destination
    ) { row in
      let attempt = try replay(row)
      latest[attempt.uuid] = attempt
    }
    return latest
  }

  /// Every attempt to send one notification, anywhere, oldest first.
  ///
  /// - Parameter uuid: the notification.
  /// - Returns: the attempts.
  /// - Throws: `SQLiteError`.
  public func replays(of uuid: String) throws -> [NotificationReplayRow] {
    var attempts: [NotificationReplayRow] = []
    try database.forEachRow(
      """
      SELECT id, notification_uuid, destination, state, sent_ms, answered_ms, http_status, error
      FROM notification_replays WHERE notification_uuid = ? ORDER BY id
      """, binding: uuid
    ) { attempts.append(try replay($0)) }
    return attempts
  }

  /// Journals an attempt as sent, committed before the request leaves.
  ///
  /// - Parameters:
  ///   - uuid: the notification.
  ///   - destination: the endpoint.
  ///   - sentAt: the wall clock (Unix ms).
  /// - Returns: the attempt's id, to record its answer.
  /// - Throws: `SQLiteError`.
  public func beginReplay(uuid: String, destination: String, sentAt: Int64) throws -> Int64 {
    try database.run(
      """
      INSERT INTO notification_replays (notification_uuid, destination, state, sent_ms)
      VALUES (?, ?, 'sent', ?)
      """, binding: uuid, destination, sentAt)
    return try database.lastInsertRowID
  }

  /// Records what became of an attempt.
  ///
  /// - Parameters:
  ///   - id: the attempt, from ``beginReplay(uuid:destination:sentAt:)``.
  ///   - state: `accepted` or `failed`.
  ///   - answeredAt: the wall clock (Unix ms).
  ///   - httpStatus: the answer's status, when there was one.
  ///   - error: why there was no answer, or the start of a refusal's body.
  /// - Throws: `SQLiteError`.
  public func finishReplay(
    id: Int64, state: NotificationReplayRow.State, answeredAt: Int64, httpStatus: Int?,
    error: String?
  ) throws {
    try database.run(
      """
      UPDATE notification_replays SET state = ?, answered_ms = ?, http_status = ?, error = ?
      WHERE id = ?
      """, binding: state.rawValue, answeredAt, httpStatus, error, id)
  }

  private func replay(_ row: SQLiteRow) throws -> NotificationReplayRow {
    let state = try row.string(at: 3)
    // The table's CHECK admits no other state; one would mean a file changed by hand.
    guard let known = NotificationReplayRow.State(rawValue: state) else {
      throw SQLiteError(
        code: .error, message: "notification_replays holds the unknown state '\(state)'",
        sql: nil, databasePath: path)
    }
    return NotificationReplayRow(
      id: try row.int64(at: 0), uuid: try row.string(at: 1), destination: try row.string(at: 2),
      state: known, sentMilliseconds: try row.int64(at: 4),
      answeredMilliseconds: try row.optionalInt64(at: 5), httpStatus: try row.optionalInt(at: 6),
      error: try row.optionalString(at: 7))
  }
}
