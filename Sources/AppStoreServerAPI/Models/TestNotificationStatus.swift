/// Apple's answer to Get Test Notification Status: the test notification it sent, verified, and
/// what happened when it tried to deliver it.
public struct TestNotificationStatus: Sendable, Hashable {
  /// The `TEST` notification, verified; `nil` when the answer carried none.
  public var notification: Verified<NotificationPayload>?
  /// The delivery attempts so far, oldest first; empty while Apple has not tried yet.
  public var sendAttempts: [SendAttempt]

  /// A status from its parts.
  ///
  /// - Parameters:
  ///   - notification: the verified test notification.
  ///   - sendAttempts: the delivery attempts.
  public init(notification: Verified<NotificationPayload>?, sendAttempts: [SendAttempt]) {
    self.notification = notification
    self.sendAttempts = sendAttempts
  }
}
