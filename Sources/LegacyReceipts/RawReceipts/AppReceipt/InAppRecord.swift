import Chronology

/// One in-app purchase inside an app receipt (an attribute of type 17), with every field the
/// receipt carries that the migration can use. Absent fields are `nil`; Apple writes an empty
/// date for "none", which reads as `nil` too.
public struct InAppRecord: Hashable, Sendable {
  /// 1701: the number of items purchased.
  public var quantity: Int64?
  /// 1702: the product identifier.
  public var productId: String?
  /// 1703: the transaction identifier, a string of digits.
  public var transactionId: String?
  /// 1705: the original transaction identifier, a string of digits: the seed for the Server API.
  public var originalTransactionId: String?
  /// 1704: when the transaction was made.
  public var purchaseDate: Timestamp?
  /// 1706: when the original transaction was made.
  public var originalPurchaseDate: Timestamp?
  /// 1708: when the subscription period ends.
  public var expiresDate: Timestamp?
  /// 1712: when Apple refunded or revoked the transaction.
  public var cancellationDate: Timestamp?
  /// 1711: the web order line item id of a subscription period, as decimal text like the
  /// verifyReceipt field it matches.
  public var webOrderLineItemId: String?
  /// 1719: whether the period is an introductory offer.
  public var isInIntroOfferPeriod: Bool?

  /// Creates a record; every field defaults to absent.
  ///
  /// - Parameters:
  ///   - quantity: 1701, the number of items.
  ///   - productId: 1702, the product identifier.
  ///   - transactionId: 1703, the transaction identifier.
  ///   - originalTransactionId: 1705, the original transaction identifier.
  ///   - purchaseDate: 1704, when the transaction was made.
  ///   - originalPurchaseDate: 1706, when the original transaction was made.
  ///   - expiresDate: 1708, when the subscription period ends.
  ///   - cancellationDate: 1712, when Apple refunded or revoked it.
  ///   - webOrderLineItemId: 1711, the web order line item id, decimal.
  ///   - isInIntroOfferPeriod: 1719, whether the period is an introductory offer.
  public init(
    quantity: Int64? = nil, productId: String? = nil, transactionId: String? = nil,
    originalTransactionId: String? = nil, purchaseDate: Timestamp? = nil,
    originalPurchaseDate: Timestamp? = nil, expiresDate: Timestamp? = nil,
    cancellationDate: Timestamp? = nil, webOrderLineItemId: String? = nil,
    isInIntroOfferPeriod: Bool? = nil
  ) {
    self.quantity = quantity
    self.productId = productId
    self.transactionId = transactionId
    self.originalTransactionId = originalTransactionId
    self.purchaseDate = purchaseDate
    self.originalPurchaseDate = originalPurchaseDate
    self.expiresDate = expiresDate
    self.cancellationDate = cancellationDate
    self.webOrderLineItemId = webOrderLineItemId
    self.isInIntroOfferPeriod = isInIntroOfferPeriod
  }
}
