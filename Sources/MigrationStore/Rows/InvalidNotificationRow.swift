/// A notification of the notification history that failed verification, as the store keeps
/// it: its reason, and what its payload says when read without trust.
public struct InvalidNotificationRow: Hashable, Sendable {
  /// Its `notificationUUID` as its payload says, else `sha256:` and the JWS's digest.
  public var key: String
  /// The environment whose history listed it.
  public var environment: String
  /// Why it was rejected.
  public var reason: String
  /// `TYPE/SUBTYPE` as its payload says, if it says.
  public var type: String?
  /// Its `signedDate` as its payload says (Unix ms), if it says.
  public var signedMilliseconds: Int64?
  /// The store's customer its payload names, if any.
  public var customerId: Int64?
  /// The `signedPayload` as received.
  public var signedPayload: String

  /// Creates a row.
  public init(
    key: String, environment: String, reason: String, type: String?,
    signedMilliseconds: Int64?, customerId: Int64?, signedPayload: String
  ) {
    self.key = key
    self.environment = environment
    self.reason = reason
    self.type = type
    self.signedMilliseconds = signedMilliseconds
    self.customerId = customerId
    self.signedPayload = signedPayload
  }
}
