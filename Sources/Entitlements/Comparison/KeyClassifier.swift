import Chronology
import LegacyReceipts

/// The key-level rules of `Documentation/Discrepancies.md`: one key's category from the old
/// (or table) view and the new view at the same instant.
public struct KeyClassifier: Sendable {
  /// How far apart two expiries may be and still agree (default one day).
  public var expiryTolerance: Int64

  /// Creates a classifier.
  ///
  /// - Parameter expiryTolerance: the expiry tolerance in milliseconds.
  public init(expiryTolerance: Int64 = Timestamp.millisecondsPerDay) {
    self.expiryTolerance = expiryTolerance
  }

  /// The category of one key.
  ///
  /// - Parameters:
  ///   - old: the old (or table) view; `nil` when that side knows nothing of the key.
  ///   - new: the new view; `nil` when the App Store knows nothing of the key.
  /// - Returns: the category.
  public func classify(old: EntitlementView?, new: EntitlementView?) -> DiscrepancyCategory {
    if old?.isDurationUnknown == true || new?.isDurationUnknown == true { return .durationUnknown }
    if let old, old.isEntitled {
      guard let new else { return .staleExpired }  // the App Store grants nothing for the key
      switch new.status {
      case .revoked:
        if case .product = new.key { return .oneTimeRevoked }
        switch new.revocationType {
        case "FAMILY_REVOKE": return .revokedFamily
        case "REFUND_PRORATED": return .proratedRefund
        default: return .refundMissed
        }
      case .billingRetry:
        return .billingRetryAsActive
      case .expired:
        return .staleExpired
      case .active, .gracePeriod:
        if let oldProduct = old.productId, let newProduct = new.productId, oldProduct != newProduct
        {
          return .upgradeMisread
        }
        if let oldExpiry = old.expiresDate, let newExpiry = new.expiresDate,
          abs(oldExpiry.milliseconds(since: newExpiry)) > expiryTolerance
        {
          return .expiryDrift
        }
        return .match
      }
    }
    guard let new, new.isEntitled else { return .match }
    guard old != nil else {
      return new.ownership == "FAMILY_SHARED" ? .familySharedOnlyInAPI : .missingInReceipt
    }
    return new.status == .gracePeriod ? .graceMissed : .staleRenewed
  }

  /// Whether two views of the same instant agree, for telling logic from freshness: the same
  /// entitlement, and the same product when entitled. A legacy billing-retry or grace state
  /// agrees with an expired reconstruction, because a history cannot show those states.
  func agree(_ old: EntitlementView?, _ new: EntitlementView?) -> Bool {
    let oldEntitled = old?.isEntitled ?? false
    let newEntitled = new?.isEntitled ?? false
    if oldEntitled == newEntitled {
      return !oldEntitled || old?.productId == new?.productId
    }
    if let old, old.status == .gracePeriod, new?.status == .expired, old.productId == new?.productId
    {
      return true
    }
    return false
  }
}
