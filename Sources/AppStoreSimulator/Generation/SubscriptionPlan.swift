import Chronology

/// What will happen to one subscription, decided before it is simulated.
struct SubscriptionPlan {
  /// How the subscription's run ends (if it ends before the world's now).
  enum Ending {
    /// It renews until now.
    case none
    /// The customer turns auto-renew off during period `afterPeriods - 1`; it expires with
    /// this intent (1 cancelled, 3 declined a price increase, 4 product unavailable, 5 other).
    case churn(afterPeriods: Int, intent: Int64)
    /// The renewal after `afterPeriods` periods fails to bill.
    case billingFailure(afterPeriods: Int, outcome: BillingOutcome)
    /// Period `period` is refunded `afterDays` into it; nothing renews afterwards.
    case refund(period: Int, kind: Revocation.Kind, afterDays: Int)
  }

  /// What happens after a failed renewal.
  enum BillingOutcome {
    /// Billing succeeds this many days after the failure; renewals go on from there.
    case recovered(afterDays: Int)
    /// Apple stops retrying after 60 days; the subscription expires.
    case gaveUp
    /// Still failing at the world's now.
    case stillFailing
  }

  /// A change of product within the group.
  enum Change {
    /// Immediate move to a higher level `dayIntoPeriod` days into period `period`.
    case upgrade(period: Int, dayIntoPeriod: Int, to: SimulatedProduct)
    /// Move to a lower level (downgrade) or another duration at the same level (crossgrade),
    /// chosen during period `period` and effective at its renewal.
    case atRenewal(period: Int, to: SimulatedProduct, label: String)
  }

  var product: SimulatedProduct
  var start: Timestamp
  var introductoryTrial: Bool
  var ending: Ending = .none
  var change: Change?
  /// After a churn, the customer comes back this many days after expiry with this offer.
  var comeback: (afterDays: Int, offer: Offer)?
  /// Ownership of the transactions (family members get `.familyShared` mirrors instead).
  var priceIncreaseNoticeDays = 25
}
