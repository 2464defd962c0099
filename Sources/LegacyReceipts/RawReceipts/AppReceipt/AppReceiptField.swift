/// The attribute types of an app receipt's payload that this toolkit reads, by their ASN.1 type
/// number.
///
/// Apple documents 2, 3, 12, 17, 19 and 21 for the receipt and 1701–1719 for an in-app purchase;
/// type 0 (the receipt type, such as `ProductionSandbox` or `Xcode`) is undocumented but present
/// in every receipt. Note that 1703 is the transaction id and 1705 the original transaction id,
/// as in Apple's own App Store Server Library.
public enum AppReceiptField: Int64, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// 0: the receipt type (`Production`, `ProductionSandbox`, `Xcode`), UTF8String.
  case receiptType = 0
  /// 2: the app's bundle identifier, UTF8String.
  case bundleId = 2
  /// 3: the app version (`CFBundleVersion`), UTF8String.
  case applicationVersion = 3
  /// 12: when the receipt was created, IA5String in RFC 3339 form.
  case creationDate = 12
  /// 17: one in-app purchase, itself a SET of attributes.
  case inAppPurchase = 17
  /// 19: the app version originally purchased, UTF8String.
  case originalApplicationVersion = 19
  /// 21: when a volume-purchase receipt expires, IA5String in RFC 3339 form.
  case expirationDate = 21
  /// 1701: the number of items purchased, INTEGER.
  case quantity = 1701
  /// 1702: the product identifier, UTF8String.
  case productId = 1702
  /// 1703: the transaction identifier, UTF8String.
  case transactionId = 1703
  /// 1704: when the transaction was made, IA5String in RFC 3339 form.
  case purchaseDate = 1704
  /// 1705: the original transaction identifier, UTF8String.
  case originalTransactionId = 1705
  /// 1706: when the original transaction was made, IA5String in RFC 3339 form.
  case originalPurchaseDate = 1706
  /// 1708: when the subscription period ends, IA5String in RFC 3339 form (empty if none).
  case expiresDate = 1708
  /// 1711: the web order line item id of a subscription period, INTEGER.
  case webOrderLineItemId = 1711
  /// 1712: when Apple refunded or revoked the transaction, IA5String (empty if never).
  case cancellationDate = 1712
  /// 1719: whether the period is an introductory offer, INTEGER 1 or 0.
  case isInIntroOfferPeriod = 1719

  /// The field's name and type number: `original transaction id (type 1705)`.
  public var description: String {
    let name =
      switch self {
      case .receiptType: "receipt type"
      case .bundleId: "bundle id"
      case .applicationVersion: "app version"
      case .creationDate: "creation date"
      case .inAppPurchase: "in-app purchase"
      case .originalApplicationVersion: "original app version"
      case .expirationDate: "expiration date"
      case .quantity: "quantity"
      case .productId: "product id"
      case .transactionId: "transaction id"
      case .purchaseDate: "purchase date"
      case .originalTransactionId: "original transaction id"
      case .originalPurchaseDate: "original purchase date"
      case .expiresDate: "expires date"
      case .webOrderLineItemId: "web order line item id"
      case .cancellationDate: "cancellation date"
      case .isInIntroOfferPeriod: "introductory offer period"
      }
    return "\(name) (type \(rawValue))"
  }
}
