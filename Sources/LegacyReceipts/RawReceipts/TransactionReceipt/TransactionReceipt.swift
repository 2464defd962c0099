import Chronology

/// What a legacy iOS 6 transaction receipt (`SKPaymentTransaction.transactionReceipt`) holds:
/// one transaction, read from the `purchase-info` inside it.
public struct TransactionReceipt: Hashable, Sendable {
  /// `transaction-id`
  public var transactionId: String
  /// `original-transaction-id`: the seed for the App Store Server API. Some receipts hold only
  /// `transaction-id` (all Apple's own receipt utility reads); then it is `nil` and the
  /// transaction id is the seed.
  public var originalTransactionId: String?
  /// `product-id`
  public var productId: String?
  /// `bid`: the app's bundle identifier.
  public var bundleId: String?
  /// `bvrs`: the app's bundle version.
  public var bundleVersion: String?
  /// `item-id`: the product's App Store item id.
  public var itemId: String?
  /// `quantity`
  public var quantity: Int64?
  /// `purchase-date-ms`
  public var purchaseDate: Timestamp?
  /// `original-purchase-date-ms`
  public var originalPurchaseDate: Timestamp?
  /// `expires-date` (Unix milliseconds) of an auto-renewable subscription.
  public var expiresDate: Timestamp?
  /// `web-order-line-item-id`
  public var webOrderLineItemId: String?
  /// The outer `environment` entry (`Sandbox`); production receipts have none.
  public var environment: String?

  /// Creates a receipt.
  ///
  /// - Parameters:
  ///   - transactionId: `transaction-id`.
  ///   - originalTransactionId: `original-transaction-id`.
  ///   - productId: `product-id`.
  ///   - bundleId: `bid`.
  ///   - bundleVersion: `bvrs`.
  ///   - itemId: `item-id`.
  ///   - quantity: `quantity`.
  ///   - purchaseDate: `purchase-date-ms`.
  ///   - originalPurchaseDate: `original-purchase-date-ms`.
  ///   - expiresDate: `expires-date`.
  ///   - webOrderLineItemId: `web-order-line-item-id`.
  ///   - environment: the outer `environment`.
  public init(
    transactionId: String, originalTransactionId: String?, productId: String? = nil,
    bundleId: String? = nil, bundleVersion: String? = nil, itemId: String? = nil,
    quantity: Int64? = nil, purchaseDate: Timestamp? = nil,
    originalPurchaseDate: Timestamp? = nil, expiresDate: Timestamp? = nil,
    webOrderLineItemId: String? = nil, environment: String? = nil
  ) {
    self.transactionId = transactionId
    self.originalTransactionId = originalTransactionId
    self.productId = productId
    self.bundleId = bundleId
    self.bundleVersion = bundleVersion
    self.itemId = itemId
    self.quantity = quantity
    self.purchaseDate = purchaseDate
    self.originalPurchaseDate = originalPurchaseDate
    self.expiresDate = expiresDate
    self.webOrderLineItemId = webOrderLineItemId
    self.environment = environment
  }
}
