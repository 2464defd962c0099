import AppStoreServerAPI
import Chronology

/// One notification the simulated App Store sent: what happened, when, to which purchase, and
/// whether it reached the app's server. Its payload is made and signed when first asked for.
struct NotificationRecord: Hashable, Sendable {
  var type: NotificationType
  var subtype: NotificationSubtype?
  /// When it happened: the notification's `signedDate`, and the instant its transaction and
  /// renewal information describe.
  var date: Timestamp
  /// The customer's position in the world.
  var customer: Int
  /// The transaction the notification carries.
  var transactionId: String
  /// The subscription whose renewal information it carries; `nil` for one-time purchases.
  var originalTransactionId: String?
  /// `notificationUUID`.
  var uuid: String = ""
  /// Whether its first delivery attempt failed.
  var failed = false
  /// The attempt (counted from 0, the first) on which a failed notification was delivered after
  /// all, or `nil` when no attempt succeeds.
  var deliveredOnAttempt: Int?
  /// Whether the notification history leaves it out although Apple sent it (a feed that drops
  /// notifications).
  var omitted = false
}
