/// A mistake real legacy entitlement code makes. The reference logic has none of them; a
/// logic configured with some reproduces what a team's own buggy code would have decided, so
/// the simulator can write a realistic entitlement table and a report can name the bug.
public enum LegacyLogicFlaw: String, CaseIterable, Hashable, Sendable, Comparable {
  /// Takes the last element of `latest_receipt_info` as "current" instead of evaluating all.
  case takesLastArrayElement = "takes_last_array_element"
  /// Reads subscription state from the stale `in_app` instead of `latest_receipt_info`.
  case readsInAppInsteadOfLatest = "reads_in_app_instead_of_latest"
  /// Ignores `cancellation_date`: refunded customers keep access.
  case ignoresCancellation = "ignores_cancellation"
  /// Has no grace-period support: paying customers are locked out during grace.
  case noGracePeriod = "no_grace_period"
  /// Treats `auto_renew_status == "1"` as entitled during billing retry.
  case autoRenewMeansEntitled = "auto_renew_means_entitled"
  /// Treats a missing `expiration_intent` as still active.
  case missingIntentMeansActive = "missing_intent_means_active"
  /// Does not understand the iOS 6 layout (`latest_receipt_info` as an object).
  case mishandlesIOS6Shape = "mishandles_ios6_shape"
  /// Parses ids as floating-point numbers, corrupting ids above 2^53.
  case losesIdPrecision = "loses_id_precision"
  /// Picks the latest `expires_date` without excluding `is_upgraded` rows, so after an upgrade
  /// the replaced tier can stay current.
  case keepsUpgradedRows = "keeps_upgraded_rows"
  /// Keeps only rows of the one `original_transaction_id` the team stored for the account, so
  /// family-shared purchases, other products and a second Apple Account's purchases are missed.
  case filtersByOneOriginalId = "filters_by_one_original_id"
  /// Treats any row with a `cancellation_date` as a revocation of the whole subscription, so a
  /// refunded past renewal (or an upgrade marked by cancellation) revokes a paid subscription.
  case anyCancellationRevokes = "any_cancellation_revokes"
  /// Treats `auto_renew_status` 0 as the end of access, though the period is paid until it
  /// expires.
  case autoRenewOffMeansExpired = "auto_renew_off_means_expired"
  /// Adds a fixed number of "grace" days (``fixedGraceDays``) to every expiry, whatever Apple
  /// says about billing.
  case addsFixedGraceDays = "adds_fixed_grace_days"
  /// Treats a non-renewing subscription as owned for ever, ignoring its duration.
  case nonRenewingOwnedForever = "non_renewing_owned_forever"
  /// Counts consumables in the receipt as owned products.
  case consumablesCountAsOwned = "consumables_count_as_owned"
  /// Takes the first element of `latest_receipt_info` as the current subscription.
  case takesFirstArrayElement = "takes_first_array_element"
  /// Reads `status` 0 ("the receipt is valid") as "subscribed": every subscription in a valid
  /// receipt grants access, expired or not.
  case status0MeansSubscribed = "status_0_means_subscribed"

  /// The days ``addsFixedGraceDays`` adds to every expiry: a week, as teams that add a
  /// "grace" of their own commonly do.
  public static let fixedGraceDays = 7

  /// A sentence for reports: what the bug does to customers.
  public var explanation: String {
    switch self {
    case .takesLastArrayElement: return "takes the last array element as the current subscription"
    case .readsInAppInsteadOfLatest: return "reads subscription state from the stale in_app array"
    case .ignoresCancellation: return "ignores cancellation_date, so refunded customers keep access"
    case .noGracePeriod: return "has no grace-period support, so paying customers are locked out"
    case .autoRenewMeansEntitled:
      return "treats auto_renew_status 1 as entitled during billing retry"
    case .missingIntentMeansActive: return "treats a missing expiration_intent as active"
    case .mishandlesIOS6Shape: return "does not understand the iOS 6 response layout"
    case .losesIdPrecision: return "parses ids as floating-point numbers and corrupts large ids"
    case .keepsUpgradedRows:
      return "takes the latest expires_date without excluding is_upgraded rows, so an upgrade "
        + "can leave the old tier"
    case .filtersByOneOriginalId:
      return "keeps only the one stored original_transaction_id, so family-shared and second "
        + "Apple Account purchases are missed"
    case .anyCancellationRevokes:
      return "treats any row with a cancellation_date as revoked, so a refunded past renewal "
        + "revokes a paid subscription"
    case .autoRenewOffMeansExpired:
      return "treats auto_renew_status 0 as the end of access, so customers who turned "
        + "auto-renew off lose the period they paid for"
    case .addsFixedGraceDays:
      return "adds \(Self.fixedGraceDays) days of its own grace to every expiry, so lapsed "
        + "customers keep access for a week"
    case .nonRenewingOwnedForever:
      return "treats non-renewing subscriptions as owned for ever, ignoring their duration"
    case .consumablesCountAsOwned:
      return "counts consumables in the receipt as owned products"
    case .takesFirstArrayElement:
      return "takes the first array element as the current subscription"
    case .status0MeansSubscribed:
      return "reads status 0 (a valid receipt) as subscribed, so expired subscriptions keep "
        + "access"
    }
  }

  /// Orders flaws by their stable text.
  public static func < (lhs: LegacyLogicFlaw, rhs: LegacyLogicFlaw) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}
