import AppStoreServerAPI
import Chronology

/// Which purchases `link` writes a token on: the ones still relevant to the team's server.
///
/// A token matters for what Apple will still tell the server about a purchase — renewals,
/// billing problems, refunds, returns — and for which account owns what it entitles. So, by
/// default:
///
/// - a **non-consumable** is written while it is owned (not refunded): it entitles its owner
///   for good;
/// - an **auto-renewable subscription** is written unless it was revoked or lapsed longer ago
///   than ``lapsedWithin``: an entitled customer (active, grace period, billing retry) renews
///   under the token, and a customer who lapsed recently may come back — a resubscription in the
///   same group continues the same original transaction, and Apple carries a token set on it to
///   every later renewal;
/// - a **non-renewing subscription** is written when it was bought within ``lapsedWithin`` and
///   not refunded: its term is the app's, so its age is the only measure;
/// - a **consumable** is not written: it is used up, and nothing but a refund follows it;
/// - a **refunded or revoked** purchase is not written: it entitles nothing.
///
/// Family-shared purchases (Apple answers `4000185`) and `ASSIGNED` ones (`4000227`) are never
/// written; the flags cannot change that.
public struct LinkScope: Sendable, Hashable {
  /// Write consumables too.
  public var includesConsumables: Bool
  /// Write refunded and revoked purchases too.
  public var includesRevoked: Bool
  /// How long ago a subscription may have lapsed (or a non-renewing one been bought) to be
  /// written, in milliseconds; `nil` writes every one.
  public var lapsedWithinMilliseconds: Int64?

  /// A year: a customer who has not come back within it rarely does.
  public static let defaultLapsedWithinMilliseconds = 365 * Timestamp.millisecondsPerDay

  /// Creates a scope; the defaults are the documented ones.
  ///
  /// - Parameters:
  ///   - includesConsumables: write consumables too.
  ///   - includesRevoked: write refunded and revoked purchases too.
  ///   - lapsedWithinMilliseconds: the window for lapsed subscriptions; `nil` for no limit.
  public init(
    includesConsumables: Bool = false, includesRevoked: Bool = false,
    lapsedWithinMilliseconds: Int64? = LinkScope.defaultLapsedWithinMilliseconds
  ) {
    self.includesConsumables = includesConsumables
    self.includesRevoked = includesRevoked
    self.lapsedWithinMilliseconds = lapsedWithinMilliseconds
  }

  /// Why a purchase is left out, or `nil` when it is written.
  ///
  /// - Parameters:
  ///   - purchase: the purchase, with its latest transaction's facts.
  ///   - instant: when the App Store's data is judged (its clock).
  /// - Returns: the reason it is not written, or `nil`.
  public func exclusion(of purchase: PurchaseToken, at instant: Timestamp) -> LinkSkipReason? {
    switch purchase.ownership {
    case .familyShared?: return .familyShared
    case .assigned?: return .assigned
    default: break
    }
    if purchase.revocationDate.map({ $0 <= instant }) ?? false, !includesRevoked {
      return .revoked
    }
    let window = lapsedWithinMilliseconds.map { instant.adding(milliseconds: -$0) }
    switch purchase.productType {
    case .consumable?:
      return includesConsumables ? nil : .consumable
    case .autoRenewableSubscription?:
      if let window, let expires = purchase.expiresDate, expires < window { return .lapsed }
      return nil
    case .nonRenewingSubscription?:
      if let window, let bought = purchase.purchaseDate, bought < window { return .lapsed }
      return nil
    default:
      // Non-consumables, and types Apple adds later: a purchase that is owned.
      return nil
    }
  }
}
