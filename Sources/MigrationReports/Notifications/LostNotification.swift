import Chronology

/// A notification whose delivery to the team's server failed, as the report lists it: lost (so
/// the team can replay it) or still pending (Apple may retry it; replaying it now could process
/// it twice).
public struct LostNotification: Hashable, Sendable {
  /// `notificationUUID`.
  public var uuid: String
  /// The environment.
  public var environment: String
  /// `notificationType`.
  public var type: String
  /// `subtype`.
  public var subtype: String?
  /// When it was signed: the event's instant.
  public var signedDate: Timestamp?
  /// The purchase it is about.
  public var originalTransactionId: String?
  /// The customer key, when the store knows the customer.
  public var customerKey: String?
  /// The team accounts linked to that customer.
  public var accounts: [String]
  /// The first delivery attempt.
  public var firstAttempt: Timestamp?
  /// The last delivery attempt.
  public var lastAttempt: Timestamp?
  /// Why the last attempt failed, such as `TIMED_OUT`.
  public var reason: String?
  /// The signed payload, for replaying it.
  public var signedPayload: String
  /// Where its delivery stands: `lost` (its last attempt failed), `pending` (Apple may still
  /// retry it) or `delivered_late`.
  public var delivery: String
  /// How many attempts failed.
  public var failedAttempts: Int
  /// The run that reported it as lost, once one has (`explain` names it).
  public var reportedRunId: String?

  /// Creates a lost notification.
  public init(
    uuid: String, environment: String, type: String, subtype: String?, signedDate: Timestamp?,
    originalTransactionId: String?, customerKey: String?, accounts: [String],
    firstAttempt: Timestamp?, lastAttempt: Timestamp?, reason: String?, signedPayload: String,
    delivery: String = "lost", failedAttempts: Int = 0
  ) {
    self.uuid = uuid
    self.environment = environment
    self.type = type
    self.subtype = subtype
    self.signedDate = signedDate
    self.originalTransactionId = originalTransactionId
    self.customerKey = customerKey
    self.accounts = accounts
    self.firstAttempt = firstAttempt
    self.lastAttempt = lastAttempt
    self.reason = reason
    self.signedPayload = signedPayload
    self.delivery = delivery
    self.failedAttempts = failedAttempts
  }

  /// `DID_RENEW/BILLING_RECOVERY`.
  public var kind: String { subtype.map { "\(type)/\($0)" } ?? type }
}
