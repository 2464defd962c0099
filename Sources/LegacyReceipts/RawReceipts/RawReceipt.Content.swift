extension RawReceipt {
  /// What a raw receipt holds, by format.
  public enum Content: Hashable, Sendable {
    /// An app receipt's contents.
    case appReceipt(RawAppReceipt)
    /// An iOS 6 transaction receipt's transaction.
    case transactionReceipt(TransactionReceipt)
  }
}
