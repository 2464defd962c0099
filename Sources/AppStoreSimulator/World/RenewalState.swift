import Chronology
import LegacyReceipts

/// The renewal state of one subscription (one original transaction) from an instant on.
public struct RenewalState: Hashable, Sendable {
  /// `autoRenewStatus`: whether it will renew.
  public var autoRenewStatus: Bool
  /// `autoRenewProductId`: the product it renews into (differs after a downgrade or crossgrade).
  public var autoRenewProductId: String
  /// `expirationIntent`, once it has expired (or while in billing retry: 2).
  public var expirationIntent: ExpirationIntent?
  /// `isInBillingRetryPeriod`
  public var isInBillingRetryPeriod: Bool
  /// `gracePeriodExpiresDate`, while in the billing grace period.
  public var gracePeriodExpiresDate: Timestamp?
  /// `priceIncreaseStatus`: 0 not yet consented, 1 consented; `nil` without a price increase.
  public var priceIncreaseStatus: Int64?

  /// Creates a state.
  public init(
    autoRenewStatus: Bool, autoRenewProductId: String, expirationIntent: ExpirationIntent? = nil,
    isInBillingRetryPeriod: Bool = false, gracePeriodExpiresDate: Timestamp? = nil,
    priceIncreaseStatus: Int64? = nil
  ) {
    self.autoRenewStatus = autoRenewStatus
    self.autoRenewProductId = autoRenewProductId
    self.expirationIntent = expirationIntent
    self.isInBillingRetryPeriod = isInBillingRetryPeriod
    self.gracePeriodExpiresDate = gracePeriodExpiresDate
    self.priceIncreaseStatus = priceIncreaseStatus
  }
}

/// The dated renewal states of one subscription.
public struct RenewalTimeline: Hashable, Sendable {
  /// The subscription's original transaction id.
  public var originalTransactionId: String
  /// Its subscription group.
  public var group: String
  /// States in time order; each holds from its instant until the next.
  public var events: [(at: Timestamp, state: RenewalState)]

  /// Creates a timeline.
  ///
  /// - Parameters:
  ///   - originalTransactionId: the subscription.
  ///   - group: its group.
  ///   - events: dated states, in time order.
  public init(
    originalTransactionId: String, group: String, events: [(at: Timestamp, state: RenewalState)]
  ) {
    self.originalTransactionId = originalTransactionId
    self.group = group
    self.events = events
  }

  /// The state at `instant`, or `nil` before the subscription began.
  ///
  /// - Parameter instant: the instant asked about.
  public func state(at instant: Timestamp) -> RenewalState? {
    events.last { $0.at <= instant }?.state
  }

  /// Timelines compare by their content.
  public static func == (lhs: RenewalTimeline, rhs: RenewalTimeline) -> Bool {
    lhs.originalTransactionId == rhs.originalTransactionId && lhs.group == rhs.group
      && lhs.events.map(\.at) == rhs.events.map(\.at)
      && lhs.events.map(\.state) == rhs.events.map(\.state)
  }

  /// Hashes the content.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(originalTransactionId)
    hasher.combine(events.count)
  }
}
