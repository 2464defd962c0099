/// A field of a raw receipt, named precisely enough to find it.
public enum RawReceiptField: Hashable, Sendable, CustomStringConvertible {
  /// An attribute of the app receipt itself.
  case appReceipt(AppReceiptField)
  /// An attribute of the app receipt's in-app purchase number `index` (from 1, in receipt order).
  case inAppPurchase(index: Int, AppReceiptField)
  /// An entry of an iOS 6 transaction receipt's `purchase-info`.
  case purchaseInfo(key: String)

  /// `the transaction id (type 1703) of in-app purchase 2`, `'transaction-id' in the purchase-info`.
  public var description: String {
    switch self {
    case .appReceipt(let field): "the \(field)"
    case .inAppPurchase(let index, let field): "the \(field) of in-app purchase \(index)"
    case .purchaseInfo(let key): "'\(key)' in the purchase-info"
    }
  }
}
