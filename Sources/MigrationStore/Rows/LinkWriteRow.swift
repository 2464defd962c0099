/// One journaled write of a `link` run: a purchase's token before and after, and what became of
/// the request.
public struct LinkWriteRow: Hashable, Sendable {
  /// Where a write stands.
  public enum State: String, Sendable, Hashable, CaseIterable {
    /// Planned; nothing sent yet.
    case planned
    /// About to be sent, or sent without a recorded answer (in doubt after a crash).
    case sending
    /// The App Store accepted it.
    case applied
    /// The App Store refused it, or it failed after retries.
    case failed
    /// Refused locally, never sent (family-shared, not an original id, nothing to restore).
    case refused
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
  /// The token the purchase carried before, if any.
  public var oldToken: String?
  /// The token written.
  public var newToken: String
  /// Where the write stands.
  public var state: State
  /// The App Store's answer (`200`, an error code and message) or the local reason.
  public var answer: String?
  /// When the request was last sent (Unix ms).
  public var attemptedMilliseconds: Int64?
  /// When the answer was recorded (Unix ms).
  public var answeredMilliseconds: Int64?

  /// Creates a row.
  public init(
    runId: String, originalTransactionId: String, accountId: String, customerId: Int64?,
    environment: String, isSubscription: Bool, oldToken: String?, newToken: String,
    state: State = .planned, answer: String? = nil, attemptedMilliseconds: Int64? = nil,
    answeredMilliseconds: Int64? = nil
  ) {
    self.runId = runId
    self.originalTransactionId = originalTransactionId
    self.accountId = accountId
    self.customerId = customerId
    self.environment = environment
    self.isSubscription = isSubscription
    self.oldToken = oldToken
    self.newToken = newToken
    self.state = state
    self.answer = answer
    self.attemptedMilliseconds = attemptedMilliseconds
    self.answeredMilliseconds = answeredMilliseconds
  }
}
