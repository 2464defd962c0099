import Chronology

/// A stored `/verifyReceipt` response, normalised: the iOS 6 style is mapped onto the same
/// fields as the modern one, and `latest_receipt` is never kept (only whether it was there).
public struct VerifyReceiptResponse: Hashable, Sendable {
  /// The layout Apple used for the response.
  public enum Shape: String, Hashable, Sendable {
    /// The modern layout: `receipt.in_app` and arrays everywhere.
    case modern
    /// The iOS 6 layout: `receipt` is one transaction, `latest_receipt_info` an object.
    case iOS6
  }

  /// `status`
  public var status: ReceiptStatus
  /// `environment`
  public var environment: ReceiptEnvironment?
  /// `is_retryable` (also spelled `is-retryable`), meaningful for 21100–21199.
  public var isRetryable: Bool?
  /// `exception`, present on some error responses.
  public var exception: String?
  /// `receipt`
  public var receipt: AppReceipt?
  /// `latest_receipt_info` (and, in the iOS 6 style, `latest_expired_receipt_info`).
  public var latestReceiptInfo: [LegacyTransaction]
  /// `pending_renewal_info` (iOS 6: built from the top-level renewal fields).
  public var pendingRenewalInfo: [LegacyRenewalInfo]
  /// Whether a `latest_receipt` was present. Its content is deliberately not kept: it must
  /// never reach a report or a log.
  public var hadLatestReceipt: Bool
  /// The layout Apple used.
  public var shape: Shape

  /// Creates an empty response with a status.
  ///
  /// - Parameter status: the `status` field.
  public init(status: ReceiptStatus) {
    self.status = status
    self.latestReceiptInfo = []
    self.pendingRenewalInfo = []
    self.hadLatestReceipt = false
    self.shape = .modern
  }

  /// The instant the response describes: `receipt.request_date`.
  public var requestDate: Timestamp? { receipt?.requestDate }

  /// The bundle id of the app, from the receipt.
  public var bundleId: String? { receipt?.bundleId }

  /// Every transaction, `latest_receipt_info` first, deduplicated by `transaction_id` with the
  /// `latest_receipt_info` copy preferred; transactions without an id are all kept.
  public var mergedTransactions: [LegacyTransaction] {
    var seen = Set<String>()
    var merged: [LegacyTransaction] = []
    merged.reserveCapacity(latestReceiptInfo.count + (receipt?.inApp.count ?? 0))
    // The two arrays in turn, not joined into a third: every compare reads this for every
    // response, and a joined copy retains and releases each transaction's strings once more.
    for transactions in [latestReceiptInfo, receipt?.inApp ?? []] {
      for transaction in transactions {
        if let id = transaction.transactionId {
          guard seen.insert(id).inserted else { continue }
        }
        merged.append(transaction)
      }
    }
    return merged
  }

  /// Every distinct `original_transaction_id` the response mentions, from
  /// `latest_receipt_info`, `in_app` and `pending_renewal_info`, in first-seen order.
  public var originalTransactionIds: [String] {
    var seen = Set<String>()
    var ids: [String] = []
    let fromTransactions = (latestReceiptInfo + (receipt?.inApp ?? [])).compactMap(
      \.originalTransactionId)
    for id in fromTransactions + pendingRenewalInfo.compactMap(\.originalTransactionId)
    where !id.isEmpty && seen.insert(id).inserted {
      ids.append(id)
    }
    return ids
  }
}
