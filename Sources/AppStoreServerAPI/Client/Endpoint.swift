/// An App Store Server API endpoint the client calls: the unit of rate limits and counters.
public enum Endpoint: String, Sendable, Hashable, CaseIterable, Comparable,
  CustomStringConvertible
{
  /// `GET /inApps/v2/history/{transactionId}`.
  case transactionHistory = "transaction_history"
  /// `GET /inApps/v1/subscriptions/{transactionId}`.
  case subscriptionStatuses = "subscription_statuses"
  /// `GET /inApps/v1/transactions/{transactionId}`.
  case transactionInfo = "transaction_info"
  /// `GET /inApps/v2/refund/lookup/{transactionId}`.
  case refundHistory = "refund_history"
  /// `GET /inApps/v1/lookup/{orderId}`.
  case orderLookup = "order_lookup"
  /// `GET /inApps/v1/transactions/appTransactions/{transactionId}`.
  case appTransactionInfo = "app_transaction_info"
  /// `POST /inApps/v1/notifications/history`.
  case notificationHistory = "notification_history"
  /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`.
  case setAppAccountToken = "set_app_account_token"
  /// `POST /inApps/v1/notifications/test`.
  case requestTestNotification = "request_test_notification"
  /// `GET /inApps/v1/notifications/test/{testNotificationToken}`.
  case testNotificationStatus = "test_notification_status"

  /// Apple's documented production limit in requests per second (sandbox gets 10 %).
  public var documentedRequestsPerSecond: Double {
    switch self {
    case .transactionHistory, .subscriptionStatuses, .transactionInfo, .appTransactionInfo,
      .notificationHistory:
      50
    case .setAppAccountToken: 20
    case .orderLookup, .refundHistory: 10
    // A test notification is asked for once a week; one a second is plenty and never more than
    // Apple allows.
    case .requestTestNotification, .testNotificationStatus: 1
    }
  }

  /// The stable name used in counters and reports, such as `transaction_history`.
  public var description: String { rawValue }

  /// Orders endpoints by declaration, for stable report output.
  ///
  /// - Parameters:
  ///   - lhs: An endpoint.
  ///   - rhs: Another endpoint.
  /// - Returns: Whether `lhs` is declared before `rhs`.
  public static func < (lhs: Endpoint, rhs: Endpoint) -> Bool {
    let order = Endpoint.allCases
    return order.firstIndex(of: lhs) ?? 0 < order.firstIndex(of: rhs) ?? 0
  }
}
