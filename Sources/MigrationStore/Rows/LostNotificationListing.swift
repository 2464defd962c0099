/// A lost notification as the store lists it: the stored row, its customer's key and the team
/// accounts linked to that customer.
public struct LostNotificationListing: Hashable, Sendable {
  /// The stored notification.
  public var notification: LostNotificationRow
  /// The customer's key (`appTransactionId`), when the store knows the customer.
  public var customerKey: String?
  /// The accounts linked to the customer, in id order.
  public var accounts: [String]
  /// The run that reported it, once one has.
  public var reportedRunId: String?

  /// Creates a listing.
  public init(
    notification: LostNotificationRow, customerKey: String?, accounts: [String],
    reportedRunId: String?
  ) {
    self.notification = notification
    self.customerKey = customerKey
    self.accounts = accounts
    self.reportedRunId = reportedRunId
  }
}
