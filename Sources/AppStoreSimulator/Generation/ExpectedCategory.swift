/// The categories of `Documentation/Discrepancies.md`, in precedence order, as the simulator's
/// oracle knows them. Kept apart from the comparison's own type on purpose: the two are
/// independent implementations of the same written rules.
public enum ExpectedCategory: String, CaseIterable, Hashable, Sendable, Comparable {
  // Account level.
  /// No usable response, at least one error response.
  case legacyErrorStatus = "legacy_error_status"
  /// No seed id at all.
  case noTransactionId = "no_transaction_id"
  /// A seed id could not be resolved (never expected from a fault-free world).
  case unresolved
  /// The App Store data of a customer of the account has run out by the comparison instant
  /// (an active status past its expiry, a grace period past its end): what holds now is
  /// unknown until the customer is asked again.
  case staleAppStoreData = "stale_app_store_data"
  /// Every seed id is unknown in both environments.
  case unknownToAppStore = "unknown_to_app_store"
  /// Every customer exists only in sandbox.
  case sandboxOnly = "sandbox_only"
  /// A customer of the account also belongs to another account.
  case sharedAppleAccount = "shared_apple_account"
  /// Ids but no verifyReceipt response: the old logic cannot be evaluated.
  case idsOnly = "ids_only"
  // Key level, in precedence order.
  /// Old entitled, new revoked by a full refund.
  case refundMissed = "refund_missed"
  /// Old entitled, new revoked by Family Sharing.
  case revokedFamily = "revoked_family"
  /// Old entitled, new revoked by a prorated refund.
  case proratedRefund = "prorated_refund"
  /// Old owns a one-time product, new revoked.
  case oneTimeRevoked = "one_time_revoked"
  /// Old entitled, new in billing retry.
  case billingRetryAsActive = "billing_retry_as_active"
  /// Old entitled, new expired.
  case staleExpired = "stale_expired"
  /// Old not entitled, new in the grace period.
  case graceMissed = "grace_missed"
  /// Old not entitled, new active.
  case staleRenewed = "stale_renewed"
  /// Old has nothing, new entitled through Family Sharing.
  case familySharedOnlyInAPI = "family_shared_only_in_api"
  /// Old has nothing, new entitled.
  case missingInReceipt = "missing_in_receipt"
  /// Both entitled, to different products of the group.
  case upgradeMisread = "upgrade_misread"
  /// Both entitled to the same product, expiries differ beyond the tolerance.
  case expiryDrift = "expiry_drift"
  /// A non-renewing subscription without a duration in the catalogue (never expected from a
  /// generated world, whose catalogue gives every duration).
  case durationUnknown = "duration_unknown"
  /// Agreement.
  case match

  private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

  /// Orders by precedence: the earlier category wins as an account's primary one.
  public static func < (lhs: ExpectedCategory, rhs: ExpectedCategory) -> Bool {
    lhs.rank < rhs.rank
  }
}
