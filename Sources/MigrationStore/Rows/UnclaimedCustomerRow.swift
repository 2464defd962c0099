/// An App Store customer a notification named that no account of the store holds.
public struct UnclaimedCustomerRow: Hashable, Sendable {
  /// The environment whose history named it.
  public var environment: String
  /// Its `appTransactionId`, else the original transaction id of the purchase named.
  public var customerKey: String
  /// The original transaction id of the purchase a notification named.
  public var originalTransactionId: String?
  /// The `appAccountToken` the purchase carried, if any.
  public var appAccountToken: String?
  /// The earliest and latest `signedDate` of the notifications that named it (Unix ms).
  public var firstSignedMilliseconds: Int64?
  /// The latest `signedDate` (Unix ms).
  public var lastSignedMilliseconds: Int64?
  /// How many notifications named it.
  public var notifications: Int
  /// The latest notification's `TYPE/SUBTYPE`.
  public var lastType: String?
  /// The account a token mapping led it to, once it was followed.
  public var claimedAccountId: String?

  /// Creates a row.
  public init(
    environment: String, customerKey: String, originalTransactionId: String?,
    appAccountToken: String?, firstSignedMilliseconds: Int64?, lastSignedMilliseconds: Int64?,
    notifications: Int, lastType: String?, claimedAccountId: String? = nil
  ) {
    self.environment = environment
    self.customerKey = customerKey
    self.originalTransactionId = originalTransactionId
    self.appAccountToken = appAccountToken
    self.firstSignedMilliseconds = firstSignedMilliseconds
    self.lastSignedMilliseconds = lastSignedMilliseconds
    self.notifications = notifications
    self.lastType = lastType
    self.claimedAccountId = claimedAccountId
  }
}
