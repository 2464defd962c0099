/// The kinds of customer story the generator tells.
public enum CustomerArchetype: String, CaseIterable, Sendable {
  /// Downloaded the app, never bought anything.
  case neverPurchased = "never_purchased"
  /// Bought only consumables (finished, so absent from receipts).
  case consumablesOnly = "consumables_only"
  /// One subscription, renewing until now.
  case loyalSubscriber = "loyal_subscriber"
  /// Cancelled (or declined a price increase, or the product disappeared).
  case churned
  /// Cancelled, then came back with an offer.
  case wonBack = "won_back"
  /// A renewal failed to bill: recovered, gave up, in retry or in grace.
  case billingTrouble = "billing_trouble"
  /// Moved between tiers or durations of a group.
  case changedPlan = "changed_plan"
  /// Got a full or prorated refund.
  case refunded
  /// Buys non-consumables (some refunded), non-renewing passes and consumables.
  case oneTimeBuyer = "one_time_buyer"
  /// Organises a family and shares a subscription with members.
  case familyOrganiser = "family_organiser"
  /// A test account that exists only in sandbox.
  case sandboxTester = "sandbox_tester"
  /// Several subscriptions and purchases with events in each: the long tail.
  case complex

  /// The default, realistic mix.
  public static let defaultWeights: [(CustomerArchetype, Double)] = [
    (.neverPurchased, 5), (.consumablesOnly, 3), (.loyalSubscriber, 30), (.churned, 14),
    (.wonBack, 3),
    (.billingTrouble, 9), (.changedPlan, 6), (.refunded, 4), (.oneTimeBuyer, 9),
    (.familyOrganiser, 3),
    (.sandboxTester, 3), (.complex, 8),
  ]
}
