import JSON

/// One notification of the notification history, verified, with its delivery attempts.
public struct NotificationHistoryItem: Sendable, Hashable {
  /// The verified notification (and the transaction and renewal information inside it).
  public var notification: Verified<NotificationPayload>
  /// The delivery attempts, oldest first.
  public var sendAttempts: [SendAttempt]

  /// An item from its parts.
  ///
  /// - Parameters:
  ///   - notification: The verified notification.
  ///   - sendAttempts: The delivery attempts.
  public init(notification: Verified<NotificationPayload>, sendAttempts: [SendAttempt]) {
    self.notification = notification
    self.sendAttempts = sendAttempts
  }
}
