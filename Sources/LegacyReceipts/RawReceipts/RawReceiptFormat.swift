/// The two kinds of raw receipt apps have sent.
public enum RawReceiptFormat: String, Hashable, Sendable, CustomStringConvertible {
  /// An app receipt: PKCS#7 `signedData` holding every in-app purchase (iOS 7 and later).
  case appReceipt = "app_receipt"
  /// An iOS 6 transaction receipt: a text property list holding one transaction.
  case transactionReceipt = "transaction_receipt"

  /// `app receipt` or `iOS 6 transaction receipt`.
  public var description: String {
    switch self {
    case .appReceipt: "app receipt"
    case .transactionReceipt: "iOS 6 transaction receipt"
    }
  }
}
