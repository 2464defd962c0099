/// A signed transaction as stored: the raw JWS and the columns decoded from it.
public struct TransactionRow: Hashable, Sendable {
  /// `transactionId`
  public var transactionId: String
  /// `originalTransactionId`
  public var originalTransactionId: String?
  /// `productId`
  public var productId: String?
  /// `subscriptionGroupIdentifier`
  public var subscriptionGroup: String?
  /// `type`
  public var type: String?
  /// `purchaseDate`
  public var purchaseMilliseconds: Int64?
  /// `originalPurchaseDate`
  public var originalPurchaseMilliseconds: Int64?
  /// `expiresDate`
  public var expiresMilliseconds: Int64?
  /// `revocationDate`
  public var revocationMilliseconds: Int64?
  /// `revocationReason`
  public var revocationReason: Int64?
  /// `revocationType`
  public var revocationType: String?
  /// `revocationPercentage`
  public var revocationPercentage: Int64?
  /// `isUpgraded`
  public var isUpgraded: Bool?
  /// `inAppOwnershipType`
  public var ownership: String?
  /// `offerType`
  public var offerType: Int64?
  /// `offerIdentifier`
  public var offerIdentifier: String?
  /// `transactionReason`
  public var transactionReason: String?
  /// `environment`
  public var environment: String?
  /// `appTransactionId`
  public var appTransactionId: String?
  /// `appAccountToken`
  public var appAccountToken: String?
  /// `signedDate`
  public var signedMilliseconds: Int64?
  /// The compact JWS exactly as the App Store sent it.
  public var jws: String
  /// A compact copy of the decoded payload, kept by customer beside the signed value (the
  /// store only keeps the bytes; `AppStoreServerAPI.CompactTransaction` writes and reads them).
  /// A transaction stored without one leaves its customer without a complete set of copies.
  public var compact: CompactCopy?

  /// Creates a row with the id and the JWS; decoded columns default to absent.
  public init(transactionId: String, jws: String) {
    self.transactionId = transactionId
    self.jws = jws
  }
}
