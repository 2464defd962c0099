import AppStoreServerAPI
import Chronology

/// One entry of the all-subscription-statuses answer: a subscription (original transaction) of
/// a group, its status, its latest transaction and its renewal info.
public struct StatusEntry: Hashable, Sendable {
  /// The subscription group.
  public var group: String
  /// The status Apple reports.
  public var status: SubscriptionStatus
  /// The subscription's original transaction id.
  public var originalTransactionId: String
  /// The latest transaction of the subscription.
  public var transaction: JWSTransaction
  /// The subscription's renewal info.
  public var renewal: JWSRenewalInfo?

  /// Creates an entry.
  public init(
    group: String, status: SubscriptionStatus, originalTransactionId: String,
    transaction: JWSTransaction,
    renewal: JWSRenewalInfo?
  ) {
    self.group = group
    self.status = status
    self.originalTransactionId = originalTransactionId
    self.transaction = transaction
    self.renewal = renewal
  }

  /// When the App Store signed the answer: the instant the status is true as of (the renewal
  /// info's `signedDate`, else the transaction's).
  public var signedDate: Timestamp? {
    renewal?.signedDate ?? transaction.signedDate
  }

  /// The instant at which the status stops saying anything: an active status at the
  /// transaction's expiry, a billing-grace-period status at the grace period's end; `nil` for
  /// the statuses that hold until something happens (expired, billing retry, revoked).
  public var runsOutAt: Timestamp? {
    switch status {
    case .active: return transaction.expiresDate
    case .billingGracePeriod: return renewal?.gracePeriodExpiresDate
    default: return nil
    }
  }
}
