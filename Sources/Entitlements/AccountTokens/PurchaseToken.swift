import AppStoreServerAPI
import Chronology

/// One purchase of an account's customer, as the token audit sees it: the purchase Apple lets a
/// server set a token on (a one-time purchase, or the latest purchase of a subscription), named
/// by its original transaction id.
public struct PurchaseToken: Hashable, Sendable {
  /// The App Store customer holding the purchase.
  public var customerKey: String
  /// The environment that knows the customer.
  public var environment: String
  /// The purchase's original transaction id: the id Set App Account Token takes.
  public var originalTransactionId: String
  /// The product of the purchase's latest transaction.
  public var productId: String?
  /// Whether it is an auto-renewable subscription (the token then also rides on its future
  /// renewals) rather than a one-time purchase.
  public var isSubscription: Bool
  /// Whether the store holds the original purchase itself (`transactionId` equal to
  /// `originalTransactionId`); Apple refuses any other id with 4000187.
  public var isOriginalKnown: Bool
  /// The token the purchase carries now (the latest transaction's, or the one `link` set), if
  /// any, lower-cased.
  public var currentToken: String?
  /// The token the mapping gives the account, if any, lower-cased.
  public var expectedToken: String?
  /// The account the current token belongs to, when it is another account's.
  public var tokenOwner: String?
  /// What the audit found.
  public var finding: TokenFinding
  /// The purchase's latest transaction (a subscription's latest renewal, else the purchase).
  public var latestTransactionId: String?
  /// The product type of the latest transaction.
  public var productType: TransactionType?
  /// Who owns the latest transaction: purchased, family-shared, or (newer) assigned.
  public var ownership: InAppOwnershipType?
  /// When the latest transaction was bought.
  public var purchaseDate: Timestamp?
  /// When the latest transaction's period ends (auto-renewable subscriptions).
  public var expiresDate: Timestamp?
  /// When the latest transaction was revoked (refunded, or removed from Family Sharing), if
  /// it was.
  public var revocationDate: Timestamp?

  /// Creates a checked purchase.
  ///
  /// - Parameters:
  ///   - latest: the purchase's latest transaction, whose product type, ownership, dates and
  ///     revocation the purchase takes (`nil` leaves them unknown).
  public init(
    customerKey: String, environment: String, originalTransactionId: String, productId: String?,
    isSubscription: Bool, isOriginalKnown: Bool, currentToken: String?, expectedToken: String?,
    tokenOwner: String?, finding: TokenFinding, latest: JWSTransaction? = nil
  ) {
    latestTransactionId = latest?.transactionId
    productType = latest?.type
    ownership = latest?.inAppOwnershipType
    purchaseDate = latest?.purchaseDate
    expiresDate = latest?.expiresDate
    revocationDate = latest?.revocationDate
    self.customerKey = customerKey
    self.environment = environment
    self.originalTransactionId = originalTransactionId
    self.productId = productId
    self.isSubscription = isSubscription
    self.isOriginalKnown = isOriginalKnown
    self.currentToken = currentToken
    self.expectedToken = expectedToken
    self.tokenOwner = tokenOwner
    self.finding = finding
  }
}
