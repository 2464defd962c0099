import Chronology
import MigrationReports
import MigrationStore

/// The store's lost notifications as the reports, `explain` and `notifications replay` show
/// them: one conversion from the store's listing, so that a fact added to it appears everywhere.
public enum LostNotificationListings {
  /// The lost notifications a run reports.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - store: the store.
  /// - Returns: the notifications, in the order they were signed.
  /// - Throws: `SQLiteError`.
  public static func reported(by runId: String, store: MigrationStore) throws
    -> [LostNotification]
  {
    try store.lostNotifications(reportedBy: runId).map(notification)
  }

  /// The failed deliveries (lost or pending) of an account's customers, whichever run reported
  /// them.
  ///
  /// - Parameters:
  ///   - accountId: the account.
  ///   - store: the store.
  /// - Returns: the notifications, in the order they were signed.
  /// - Throws: `SQLiteError`.
  public static func ofAccount(_ accountId: String, store: MigrationStore) throws
    -> [LostNotification]
  {
    try store.lostNotifications(ofAccount: accountId).map(notification)
  }

  /// A stored listing as the reports show it.
  ///
  /// - Parameter listing: the store's listing.
  /// - Returns: the notification.
  public static func notification(_ listing: LostNotificationListing) -> LostNotification {
    let row = listing.notification
    var notification = LostNotification(
      uuid: row.uuid, environment: row.environment, type: row.type, subtype: row.subtype,
      signedDate: row.signedMilliseconds.map(Timestamp.init(millisecondsSince1970:)),
      originalTransactionId: row.originalTransactionId, customerKey: listing.customerKey,
      accounts: listing.accounts,
      firstAttempt: row.firstAttemptMilliseconds.map(Timestamp.init(millisecondsSince1970:)),
      lastAttempt: row.lastAttemptMilliseconds.map(Timestamp.init(millisecondsSince1970:)),
      reason: row.lastResult, signedPayload: row.signedPayload, delivery: row.delivery.rawValue,
      failedAttempts: row.failedAttempts)
    notification.reportedRunId = listing.reportedRunId
    return notification
  }
}
