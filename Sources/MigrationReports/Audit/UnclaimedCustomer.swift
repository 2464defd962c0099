import Chronology

/// An App Store customer notifications named that no account holds — one who first bought after
/// the migration, say — as the report lists it.
public struct UnclaimedCustomer: Hashable, Sendable {
  /// The environment.
  public var environment: String
  /// Its `appTransactionId`, else the original transaction id of the purchase named.
  public var customerKey: String
  /// The original transaction id of the purchase named.
  public var originalTransactionId: String?
  /// The `appAccountToken` the purchase carried, if any.
  public var appAccountToken: String?
  /// How many notifications named it.
  public var notifications: Int
  /// The latest one's `TYPE/SUBTYPE`.
  public var lastType: String?
  /// The latest one's `signedDate`.
  public var lastSigned: Timestamp?

  /// Creates a customer.
  public init(
    environment: String, customerKey: String, originalTransactionId: String?,
    appAccountToken: String?, notifications: Int, lastType: String?, lastSigned: Timestamp?
  ) {
    self.environment = environment
    self.customerKey = customerKey
    self.originalTransactionId = originalTransactionId
    self.appAccountToken = appAccountToken
    self.notifications = notifications
    self.lastType = lastType
    self.lastSigned = lastSigned
  }
}
