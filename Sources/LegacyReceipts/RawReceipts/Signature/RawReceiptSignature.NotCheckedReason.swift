extension RawReceiptSignature {
  /// Why a receipt's signature was not checked.
  public enum NotCheckedReason: Hashable, Sendable, CustomStringConvertible {
    /// No trusted root certificate was given to check against.
    case noTrustedRoots
    /// The receipt is an iOS 6 transaction receipt, whose signature is in Apple's own,
    /// unpublished format rather than PKCS#7.
    case transactionReceipt
    /// The receipt has no creation date to check the signer's chain at, and no instant was given.
    case noInstant

    /// A phrase saying why.
    public var description: String {
      switch self {
      case .noTrustedRoots:
        "no trusted root certificate was given"
      case .transactionReceipt:
        "iOS 6 transaction receipts are signed in Apple's own format, which is not checked"
      case .noInstant:
        "the receipt has no creation date to check the signature at, and no instant was given"
      }
    }
  }
}
