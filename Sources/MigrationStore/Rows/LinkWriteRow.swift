/// One journaled write of a `link` run: a purchase's token before and after, and what became of
/// the request.
public struct LinkWriteRow: Hashable, Sendable {
  /// Where a write stands.
  public enum State: String, Sendable, Hashable, CaseIterable {
    /// Planned; nothing sent yet.
    case planned
    /// Committed just before its request left; without an answer after a crash it is in doubt,
    /// and is checked against the App Store before anything is sent again.
    case sent
    /// The App Store accepted it (or, for a write in doubt, was found to hold it already).
    case confirmed
    /// The App Store refused it, or it failed after retries; a rerun sends it again.
    case failed
    /// Never sent, for the reason in ``LinkWriteRow/reason``.
    case skipped
    /// Confirmed, then restored by the undo run ``LinkWriteRow/undoneBy``.
    case undone

    /// Whether the write still waits to be sent (planned, or in doubt).
    public var isPending: Bool { self == .planned || self == .sent }
  }

  /// The link run.
  public var runId: String
  /// The purchase's original transaction id.
  public var originalTransactionId: String
  /// The team's account.
  public var accountId: String
  /// The stored customer holding the purchase.
  public var customerId: Int64?
  /// The environment the purchase lives in.
  public var environment: String
  /// Whether the purchase is an auto-renewable subscription.
  public var isSubscription: Bool
  /// The purchase's product type as Apple names it (`Consumable`, …), when known.
  public var productType: String?
  /// The purchase's latest transaction when the write was judged.
  public var latestTransactionId: String?
  /// The token the purchase carried before, if any.
  public var oldToken: String?
  /// The token written (for an undo, the one restored; empty when there is none to restore).
  public var newToken: String
  /// Where the write stands.
  public var state: State
  /// Why a skipped write was not sent: a stable name (`consumable`, `changed_since_plan`, …).
  public var reason: String?
  /// The App Store's answer (`200`, an error code and message) or the local explanation.
  public var answer: String?
  /// For an undone write, the undo run that restored it.
  public var undoneBy: String?
  /// When the request was last sent (Unix ms).
  public var attemptedMilliseconds: Int64?
  /// When the answer was recorded (Unix ms).
  public var answeredMilliseconds: Int64?

  /// Creates a row.
  public init(
    runId: String, originalTransactionId: String, accountId: String, customerId: Int64?,
    environment: String, isSubscription: Bool, productType: String? = nil,
    latestTransactionId: String? = nil, oldToken: String?, newToken: String,
    state: State = .planned, reason: String? = nil, answer: String? = nil,
    undoneBy: String? = nil, attemptedMilliseconds: Int64? = nil,
    answeredMilliseconds: Int64? = nil
  ) {
    self.runId = runId
    self.originalTransactionId = originalTransactionId
    self.accountId = accountId
    self.customerId = customerId
    self.environment = environment
    self.isSubscription = isSubscription
    self.productType = productType
    self.latestTransactionId = latestTransactionId
    self.oldToken = oldToken
    self.newToken = newToken
    self.state = state
    self.reason = reason
    self.answer = answer
    self.undoneBy = undoneBy
    self.attemptedMilliseconds = attemptedMilliseconds
    self.answeredMilliseconds = answeredMilliseconds
  }
}
