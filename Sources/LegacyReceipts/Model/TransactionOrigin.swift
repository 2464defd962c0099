/// Where in a response a transaction was read from; the old logic prefers
/// `latest_receipt_info` copies, and reports say where evidence came from.
public enum TransactionOrigin: String, Hashable, Sendable {
  /// `latest_receipt_info` (an array, or an object in the iOS 6 style).
  case latestReceiptInfo = "latest_receipt_info"
  /// `latest_expired_receipt_info` (iOS 6 style).
  case latestExpiredReceiptInfo = "latest_expired_receipt_info"
  /// `receipt.in_app`.
  case inApp = "in_app"
  /// The iOS 6 style `receipt`, which is itself one transaction.
  case iOS6Receipt = "receipt"
}
