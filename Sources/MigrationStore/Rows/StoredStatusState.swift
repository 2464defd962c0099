/// What a customer's stored status says, in the columns the refresh needs to find states that
/// have run out.
public struct StoredStatusState: Hashable, Sendable {
  /// The customer.
  public var customerId: Int64
  /// The subscription's original transaction id.
  public var originalTransactionId: String
  /// The status code (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
  public var status: Int64
  /// The latest transaction's expiry (Unix ms).
  public var expiresMilliseconds: Int64?
  /// The grace period's end (Unix ms).
  public var gracePeriodExpiresMilliseconds: Int64?
  /// When the App Store signed it (Unix ms).
  public var signedMilliseconds: Int64?
  /// The product of the latest transaction, when known.
  public var productId: String?

  /// Creates a state.
  public init(
    customerId: Int64, originalTransactionId: String, status: Int64, expiresMilliseconds: Int64?,
    gracePeriodExpiresMilliseconds: Int64?, signedMilliseconds: Int64?, productId: String?
  ) {
    self.customerId = customerId
    self.originalTransactionId = originalTransactionId
    self.status = status
    self.expiresMilliseconds = expiresMilliseconds
    self.gracePeriodExpiresMilliseconds = gracePeriodExpiresMilliseconds
    self.signedMilliseconds = signedMilliseconds
    self.productId = productId
  }
}
