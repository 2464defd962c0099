/// One customer due to be asked again, and why.
public struct RefreshQueueRow: Hashable, Sendable {
  /// Why a customer is due, in the order the refresh works them (most at risk first).
  public enum Reason: String, Hashable, Sendable, CaseIterable {
    /// A stored state has run out (an active status past its expiry, a grace period past its
    /// end): the customer's access today is unknown.
    case ranOut = "ran_out"
    /// A notification named the customer: something changed after its data was fetched.
    case notification
    /// The stored status is billing retry: a recovery would restore access at any moment.
    case billingRetry = "billing_retry"
    /// The notification history could not cover the time since the data was fetched (older
    /// than Apple keeps it): an entitled or time-bounded state may have changed unseen. (Made
    /// by versions before schema 11; a sweep does this now.)
    case windowLost = "window_lost"
    /// A notification that failed verification names the customer: only a verified answer may
    /// say what changed.
    case hint
    /// The change feed cannot vouch for the time since the customer's data was fetched (it is
    /// unproven or absent, or could not be read to the end), and the data is older than
    /// `--max-data-age`.
    case sweep

    /// The order the refresh works reasons in: lower first; among equals, the oldest data.
    public var priority: Int {
      switch self {
      case .ranOut: 0
      case .notification, .hint: 1
      case .billingRetry: 2
      case .windowLost, .sweep: 3
      }
    }
  }

  /// The customer.
  public var customerId: Int64
  /// Why it is due (the most urgent reason, when there are several).
  public var reason: Reason
  /// One sentence for people: which data, of which date, and what made it due.
  public var detail: String
  /// When the customer's stored statuses were fetched (App Store clock, Unix ms), if known:
  /// among equals, the oldest data is refreshed first.
  public var dataMilliseconds: Int64?
  /// Whether this refresh's incremental history walk already reached its end.
  public var isHistoryDone: Bool
  /// How many refreshes of this customer failed.
  public var attempts: Int
  /// The last failure, if any.
  public var lastError: String?

  /// Creates a row.
  public init(
    customerId: Int64, reason: Reason, detail: String, dataMilliseconds: Int64?,
    isHistoryDone: Bool = false, attempts: Int = 0, lastError: String? = nil
  ) {
    self.customerId = customerId
    self.reason = reason
    self.detail = detail
    self.dataMilliseconds = dataMilliseconds
    self.isHistoryDone = isHistoryDone
    self.attempts = attempts
    self.lastError = lastError
  }
}
