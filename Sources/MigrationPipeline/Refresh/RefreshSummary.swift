import AppStoreServerAPI
import MigrationReports

/// What a refresh did: what it read, who was due and why, whom it refreshed, what it spent,
/// and what is left for the next run.
public struct RefreshSummary: Sendable, Hashable {
  /// Notification history pages read.
  public var notificationPages = 0
  /// Notifications read.
  public var notificationsRead = 0
  /// Notifications naming customers the store does not hold (nobody's legacy data led to them).
  public var notificationsOutsideStore = 0
  /// Notifications already reflected in the customer's stored data.
  public var notificationsAlreadyKnown = 0
  /// Notifications whose delivery is now final and failed (lost), newly found.
  public var lostNotificationsFound = 0
  /// Notifications whose delivery failed and that Apple may still retry, at the end.
  public var pendingNotifications = 0
  /// Notifications a later attempt delivered, newly found.
  public var deliveredLate = 0
  /// `onlyFailures` pages read to follow pending deliveries.
  public var failurePages = 0
  /// Notifications that failed verification, newly found.
  public var invalidNotifications = 0
  /// Test notification requests and status checks.
  public var feedRequests = 0
  /// Transactions looked up (Get Transaction Info) because a notification that failed
  /// verification named a customer the store did not hold.
  public var transactionLookups = 0
  /// Per environment, whether its change feed can be trusted, and the sweep it needed.
  public var feeds: [FeedHealthFacts] = []
  /// Customers outside the store a token mapping led to an account (added as seeds; the run's
  /// backfill fetches them).
  public var followedCustomers = 0
  /// Windows restarted because Apple no longer accepted their pagination token.
  public var windowRestarts = 0
  /// Customers due when the work began, by reason (`ran_out`, `notification`, ...).
  public var dueByReason: [String: Int] = [:]
  /// Customers refreshed (history and statuses stored anew).
  public var refreshed = 0
  /// Incremental history pages fetched.
  public var historyPages = 0
  /// Status calls made.
  public var statusCalls = 0
  /// Walks restarted from the beginning because Apple refused the stored revision twice.
  public var revisionRestarts = 0
  /// History requests Apple refused for their revision (`4000005`); at most three per customer
  /// and run.
  public var revisionRefusals = 0
  /// Customers whose refresh failed in this run (they stay due).
  public var failed = 0
  /// Customers still due at the end (not reached within the budget, or failed).
  public var stillDue = 0
  /// Requests the refresh sent of its own accord.
  public var requests = 0
  /// Why the refresh stopped early: `max-requests` or `max-duration`; `nil` when it did not.
  public var budgetExhausted: String?
  /// Warnings for people, such as a notification window older than Apple keeps.
  public var warnings: [String] = []
  /// Per environment, the instant (Unix ms) the App Store data is current through.
  public var watermarks: [String: Int64] = [:]
  /// How long it took.
  public var durationMilliseconds: Int64 = 0

  /// An empty summary.
  public init() {}

  /// How many customers were due when the work began.
  public var due: Int { dueByReason.values.reduce(0, +) }
}
