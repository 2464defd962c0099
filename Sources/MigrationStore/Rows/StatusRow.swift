/// One subscription status as stored: the status, the raw signed transaction and renewal info,
/// and the renewal columns decoded from it.
public struct StatusRow: Hashable, Sendable {
  /// The subscription's original transaction id.
  public var originalTransactionId: String
  /// Its group.
  public var subscriptionGroup: String
  /// The status code Apple sent (1–5, or another value).
  public var status: Int64
  /// `autoRenewStatus`
  public var autoRenewStatus: Bool?
  /// `autoRenewProductId`
  public var autoRenewProductId: String?
  /// `expirationIntent`
  public var expirationIntent: Int64?
  /// `isInBillingRetryPeriod`
  public var isInBillingRetryPeriod: Bool?
  /// `gracePeriodExpiresDate`
  public var gracePeriodExpiresMilliseconds: Int64?
  /// The renewal info's `signedDate`.
  public var renewalSignedMilliseconds: Int64?
  /// The latest transaction's id.
  public var transactionId: String?
  /// The latest transaction's `expiresDate`.
  public var expiresMilliseconds: Int64?
  /// When the App Store signed the status (the renewal info's `signedDate`, else the
  /// transaction's): the instant it is true as of.
  public var signedMilliseconds: Int64?
  /// The latest transaction's JWS.
  public var transactionJWS: String
  /// The renewal info's JWS.
  public var renewalJWS: String?

  /// Creates a row with the required fields.
  public init(
    originalTransactionId: String, subscriptionGroup: String, status: Int64, transactionJWS: String
  ) {
    self.originalTransactionId = originalTransactionId
    self.subscriptionGroup = subscriptionGroup
    self.status = status
    self.transactionJWS = transactionJWS
  }
}
