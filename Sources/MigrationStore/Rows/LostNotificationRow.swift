/// A notification whose delivery to the team's server failed, as found in the notification
/// history: what it said, about whom, how delivery failed, and whether it is final.
public struct LostNotificationRow: Hashable, Sendable {
  /// Where a failed delivery stands, following Apple's retry schedule.
  public enum Delivery: String, Hashable, Sendable {
    /// Apple may still retry it.
    case pending
    /// Its last attempt failed: the team's server never received it.
    case lost
    /// A later attempt succeeded.
    case deliveredLate = "delivered_late"
  }

  /// `notificationUUID`.
  public var uuid: String
  /// The environment whose history listed it.
  public var environment: String
  /// `notificationType`, such as `DID_RENEW`.
  public var type: String
  /// `subtype`, if any.
  public var subtype: String?
  /// When it was signed (the event's instant), Unix ms.
  public var signedMilliseconds: Int64?
  /// The purchase it is about.
  public var originalTransactionId: String?
  /// The transaction it carries.
  public var transactionId: String?
  /// The store's customer it names, if the store knows it.
  public var customerId: Int64?
  /// The first and last delivery attempts (Unix ms).
  public var firstAttemptMilliseconds: Int64?
  /// The last delivery attempt (Unix ms).
  public var lastAttemptMilliseconds: Int64?
  /// The result of the last attempt, such as `TIMED_OUT`.
  public var lastResult: String?
  /// The signed payload, so the team can replay it.
  public var signedPayload: String
  /// Where its delivery stands.
  public var delivery: Delivery
  /// How many attempts failed.
  public var failedAttempts: Int
  /// The run that reported it as lost, once one has.
  public var reportedRunId: String?

  /// Creates a row.
  public init(
    uuid: String, environment: String, type: String, subtype: String?, signedMilliseconds: Int64?,
    originalTransactionId: String?, transactionId: String?, customerId: Int64?,
    firstAttemptMilliseconds: Int64?, lastAttemptMilliseconds: Int64?, lastResult: String?,
    signedPayload: String, delivery: Delivery = .lost, failedAttempts: Int = 0,
    reportedRunId: String? = nil
  ) {
    self.uuid = uuid
    self.environment = environment
    self.type = type
    self.subtype = subtype
    self.signedMilliseconds = signedMilliseconds
    self.originalTransactionId = originalTransactionId
    self.transactionId = transactionId
    self.customerId = customerId
    self.firstAttemptMilliseconds = firstAttemptMilliseconds
    self.lastAttemptMilliseconds = lastAttemptMilliseconds
    self.lastResult = lastResult
    self.signedPayload = signedPayload
    self.delivery = delivery
    self.failedAttempts = failedAttempts
    self.reportedRunId = reportedRunId
  }
}
