import AppStoreServerAPI

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
}
