/// Which text of a raw receipt a problem is in.
public enum RawReceiptPart: Hashable, Sendable, CustomStringConvertible {
  /// The receipt as stored: the base64 text, or the property list it decodes to.
  case receipt
  /// The `purchase-info` of an iOS 6 transaction receipt: its base64 text, or the property list
  /// it decodes to.
  case purchaseInfo

  /// `the receipt` or `the purchase-info`.
  public var description: String {
    switch self {
    case .receipt: "the receipt"
    case .purchaseInfo: "the purchase-info"
    }
  }
}
