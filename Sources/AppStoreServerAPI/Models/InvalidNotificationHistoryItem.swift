/// A notification of the notification history whose `signedPayload` failed verification: kept
/// apart from the verified ones of its page, with the reason and what its payload says when
/// read without trust.
public struct InvalidNotificationHistoryItem: Sendable, Hashable {
  /// The `signedPayload` exactly as received (empty when the item had none).
  public var jws: String
  /// The delivery attempts, oldest first.
  public var sendAttempts: [SendAttempt]
  /// Why it was rejected.
  public var reason: String
  /// What its payload says, read without verifying it; `nil` when it cannot be read at all.
  public var unverified: UnverifiedNotification?

  /// An item from its parts.
  ///
  /// - Parameters:
  ///   - jws: the `signedPayload`.
  ///   - sendAttempts: the delivery attempts.
  ///   - reason: why it was rejected.
  ///   - unverified: what its payload says, read without trust.
  public init(
    jws: String, sendAttempts: [SendAttempt], reason: String, unverified: UnverifiedNotification?
  ) {
    self.jws = jws
    self.sendAttempts = sendAttempts
    self.reason = reason
    self.unverified = unverified
  }
}
