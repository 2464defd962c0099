/// Why an account's old and new entitlements differ — the taxonomy of
/// `Documentation/Discrepancies.md`, in precedence order: when several apply to an account, the
/// earliest is its primary category.
public enum DiscrepancyCategory: String, CaseIterable, Hashable, Sendable, Comparable,
  CustomStringConvertible
{
  // MARK: Account level

  /// The account has no usable response, only error responses.
  case legacyErrorStatus = "legacy_error_status"
  /// The account has no transaction id to backfill from.
  case noTransactionId = "no_transaction_id"
  /// At least one id could not be resolved: retries exhausted, or signed data failed
  /// verification. The data cannot decide; nothing is guessed.
  case unresolved
  /// The stored App Store data of one of the account's customers no longer speaks for the
  /// comparison instant (a status that has run out, or a refresh still due): nothing is guessed
  /// until the customer is asked again.
  case staleAppStoreData = "stale_app_store_data"
  /// Every id is unknown to the App Store in both environments.
  case unknownToAppStore = "unknown_to_app_store"
  /// Every App Store customer of the account exists only in sandbox.
  case sandboxOnly = "sandbox_only"
  /// One of the account's App Store customers also belongs to another account.
  case sharedAppleAccount = "shared_apple_account"
  /// The account holds ids but no verifyReceipt response, so the old logic cannot be evaluated.
  case idsOnly = "ids_only"

  // MARK: Key level

  /// Old entitled, new revoked by a full refund (or a revocation without a type).
  case refundMissed = "refund_missed"
  /// Old entitled, new revoked by Family Sharing.
  case revokedFamily = "revoked_family"
  /// Old entitled, new revoked by a prorated refund, which legacy receipts cannot show.
  case proratedRefund = "prorated_refund"
  /// Old owns a one-time product the App Store has revoked.
  case oneTimeRevoked = "one_time_revoked"
  /// Old entitled, new in billing retry.
  case billingRetryAsActive = "billing_retry_as_active"
  /// Old entitled, new expired.
  case staleExpired = "stale_expired"
  /// Old not entitled, new in the billing grace period.
  case graceMissed = "grace_missed"
  /// Old not entitled, new active.
  case staleRenewed = "stale_renewed"
  /// Old knows nothing of it, new entitled through Family Sharing.
  case familySharedOnlyInAPI = "family_shared_only_in_api"
  /// Old knows nothing of it, new entitled.
  case missingInReceipt = "missing_in_receipt"
  /// Both entitled, to different products of the same group.
  case upgradeMisread = "upgrade_misread"
  /// Both entitled to the same product, with expiries further apart than the tolerance.
  case expiryDrift = "expiry_drift"
  /// A non-renewing subscription whose duration the catalogue does not give: whether it still
  /// grants access cannot be decided (and it is never taken as owned forever).
  case durationUnknown = "duration_unknown"
  /// The two agree.
  case match

  /// Whether the category is decided for the whole account before any key is compared.
  public var isAccountLevel: Bool {
    switch self {
    case .legacyErrorStatus, .noTransactionId, .unresolved, .staleAppStoreData,
      .unknownToAppStore, .sandboxOnly, .sharedAppleAccount, .idsOnly:
      return true
    default:
      return false
    }
  }

  /// A short title for people: "Refund missed".
  public var title: String {
    switch self {
    case .legacyErrorStatus: return "Legacy error status"
    case .noTransactionId: return "No transaction id"
    case .unresolved: return "Unresolved"
    case .staleAppStoreData: return "Stale App Store data"
    case .unknownToAppStore: return "Unknown to the App Store"
    case .sandboxOnly: return "Sandbox only"
    case .sharedAppleAccount: return "Shared Apple Account"
    case .idsOnly: return "Ids only"
    case .refundMissed: return "Refund missed"
    case .revokedFamily: return "Revoked by Family Sharing"
    case .proratedRefund: return "Prorated refund"
    case .oneTimeRevoked: return "One-time purchase revoked"
    case .billingRetryAsActive: return "Billing retry taken as active"
    case .staleExpired: return "Expired since"
    case .graceMissed: return "Grace period missed"
    case .staleRenewed: return "Renewed since"
    case .familySharedOnlyInAPI: return "Family sharing only in the API"
    case .missingInReceipt: return "Missing in the receipt"
    case .upgradeMisread: return "Upgrade misread"
    case .expiryDrift: return "Expiry drift"
    case .durationUnknown: return "Duration unknown"
    case .match: return "Match"
    }
  }

  /// What the category means for the customer when the new logic goes live.
  public var impact: Impact {
    switch self {
    case .refundMissed, .revokedFamily, .proratedRefund, .oneTimeRevoked, .billingRetryAsActive,
      .staleExpired:
      return .losesAccess
    case .graceMissed, .staleRenewed, .familySharedOnlyInAPI, .missingInReceipt:
      return .gainsAccess
    case .upgradeMisread, .expiryDrift:
      return .changesTerms
    case .durationUnknown:
      return .needsAttention
    case .match:
      return .none
    case .legacyErrorStatus, .noTransactionId, .unresolved, .staleAppStoreData,
      .unknownToAppStore, .sandboxOnly, .sharedAppleAccount, .idsOnly:
      return .needsAttention
    }
  }

  /// What switching to the new logic does to a customer.
  public enum Impact: String, CaseIterable, Hashable, Sendable {
    /// The App Store withdraws access the old logic grants.
    case losesAccess = "loses_access"
    /// The App Store grants access the old logic withholds.
    case gainsAccess = "gains_access"
    /// Access stays, with another product or expiry.
    case changesTerms = "changes_terms"
    /// The account needs a person: the data cannot be compared as is.
    case needsAttention = "needs_attention"
    /// Nothing changes.
    case none
  }

  /// The raw value, such as `refund_missed`.
  public var description: String { rawValue }

  private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

  /// Orders by precedence.
  public static func < (lhs: DiscrepancyCategory, rhs: DiscrepancyCategory) -> Bool {
    lhs.rank < rhs.rank
  }
}
