/// How often things happen to customers in the days a world's timeline goes on past its clock
/// (`simulator generate --days-after D`). Rates per subscription period apply to every period
/// that reaches into those days; rates "per 30 days" scale with the length of the timeline.
///
/// The defaults describe an ordinary subscription app: most renewals succeed, a few percent of
/// subscribers churn or hit billing trouble each period, refunds and upgrades are rare.
public struct TimelineRates: Sendable, Hashable {
  /// Chance that a subscriber turns auto-renew off during a period (it then expires at the
  /// period's end).
  public var churnPerPeriod = 0.05
  /// Chance that a renewal fails to bill (billing retry, with the grace period).
  public var billingFailurePerRenewal = 0.04
  /// Chance that a failed renewal recovers within 30 days; otherwise Apple gives up after 60.
  public var billingRecovery = 0.6
  /// Chance that a period is refunded (three in four in full, the rest prorated).
  public var refundPerPeriod = 0.01
  /// Chance that the customer upgrades at once to a higher level of the group during a period.
  public var upgradePerPeriod = 0.02
  /// Chance that the customer chooses a lower level during a period, effective at renewal.
  public var downgradePerPeriod = 0.01
  /// Per 30 days: chance that a refund standing at the clock is reversed (`REFUND_REVERSED`).
  public var refundReversalPer30Days = 0.05
  /// Per 30 days: chance that a lapsed subscriber subscribes again.
  public var resubscribePer30Days = 0.03
  /// Per 30 days: chance that a customer without any subscription starts one.
  public var newSubscriberPer30Days = 0.02
  /// Per 30 days: chance that a customer buys a non-consumable they do not own yet.
  public var oneTimePurchasePer30Days = 0.02
  /// Chance that such a new one-time purchase is refunded before the timeline ends.
  public var oneTimeRefund = 0.05
  /// Per 30 days: chance that a family member leaves the family (`FAMILY_REVOKE`).
  public var familyLeavePer30Days = 0.03

  /// The default rates.
  public init() {}

  /// Every rate multiplied by `factor` (each capped at 1), for worlds where more must happen in
  /// a few days — tests that need every kind of event.
  ///
  /// - Parameter factor: the multiplier.
  /// - Returns: the scaled rates.
  public func scaled(by factor: Double) -> TimelineRates {
    func scale(_ rate: Double) -> Double { min(1, rate * factor) }
    var rates = self
    rates.churnPerPeriod = scale(churnPerPeriod)
    rates.billingFailurePerRenewal = scale(billingFailurePerRenewal)
    rates.refundPerPeriod = scale(refundPerPeriod)
    rates.upgradePerPeriod = scale(upgradePerPeriod)
    rates.downgradePerPeriod = scale(downgradePerPeriod)
    rates.refundReversalPer30Days = scale(refundReversalPer30Days)
    rates.resubscribePer30Days = scale(resubscribePer30Days)
    rates.newSubscriberPer30Days = scale(newSubscriberPer30Days)
    rates.oneTimePurchasePer30Days = scale(oneTimePurchasePer30Days)
    rates.oneTimeRefund = scale(oneTimeRefund)
    rates.familyLeavePer30Days = scale(familyLeavePer30Days)
    return rates
  }
}
