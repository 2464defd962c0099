import AppStoreServerAPI
import Chronology
import LegacyReceipts

/// The new entitlement logic, from the App Store's signed data: per subscription group from the
/// statuses (entitled when active or in the grace period), per non-consumable product from the
/// history (owned unless revoked), per non-renewing subscription from the history and the
/// catalogue's duration (the App Store gives none: active from each purchase for that long,
/// unknown without a duration, never owned forever). Consumables are never entitlements.
///
/// Pure: it reads nothing but its arguments.
public struct NewEntitlementLogic: Sendable {
  /// The team's catalogue: the durations of non-renewing subscriptions.
  public var catalog: ProductCatalog?

  /// Creates the logic.
  ///
  /// - Parameter catalog: the product catalogue, for non-renewing durations.
  public init(catalog: ProductCatalog? = nil) {
    self.catalog = catalog
  }

  /// The entitlements of a customer at `instant`: subscription groups from the statuses,
  /// one-time products from the history as of `instant`.
  ///
  /// A status is Apple's answer as of its `signedDate`. For an instant before that, the
  /// statuses describe a later moment, so the entitlements are reconstructed from the history
  /// instead (see ``reconstruct(_:at:)``) — except where a status signed later proves what held
  /// at the instant: a billing-retry or grace-period status whose latest transaction had already
  /// expired by then was in billing retry since that expiry (a recovery would have made a new
  /// transaction), so at the instant it was in its grace period (before the grace period's end)
  /// or in billing retry. For an instant after a status has run out (see
  /// ``staleness(of:customerKey:at:)``) the status is still returned here: callers check
  /// staleness first and never compare a stale customer.
  ///
  /// - Parameters:
  ///   - data: the customer's history and statuses.
  ///   - instant: the comparison instant.
  /// - Returns: one view per key.
  public func evaluate(_ data: AppStoreCustomerData, at instant: Timestamp) -> [EntitlementKey:
    EntitlementView]
  {
    if let fetched = data.statusesSignedAt, instant < fetched {
      var views = reconstruct(data.transactions, at: instant)
      for entry in data.statuses {
        guard let proven = Self.provenBillingState(of: entry, at: instant) else { continue }
        var view = Self.view(of: entry)
        view.status = proven
        view.gracePeriodExpiresDate =
          proven == .gracePeriod ? entry.renewal?.gracePeriodExpiresDate : nil
        // The same subscription's reconstruction ("expired") is what the proof replaces.
        if views[view.key]?.originalTransactionId == entry.originalTransactionId {
          views[view.key] = nil
        }
        views[view.key] = Self.better(views[view.key], view)
      }
      return views
    }
    var views: [EntitlementKey: EntitlementView] = [:]
    for entry in data.statuses {
      let view = Self.view(of: entry)
      views[view.key] = Self.better(views[view.key], view)
    }
    for view in oneTimeProducts(data.transactions, at: instant) {
      views[view.key] = Self.better(views[view.key], view)
    }
    return views
  }

  /// What a billing-retry or grace-period status signed after `instant` proves about it: when
  /// its latest transaction expired at or before `instant` (and the status was still billing
  /// trouble when signed, so no renewal came between), the subscription was in its grace period
  /// at `instant` if the grace period had not ended, else in billing retry. `nil` when the
  /// status proves nothing about `instant`.
  static func provenBillingState(of entry: StatusEntry, at instant: Timestamp)
    -> EntitlementStatus?
  {
    guard let signed = entry.signedDate, instant < signed,
      entry.status == .billingRetry || entry.status == .billingGracePeriod,
      let expired = entry.transaction.expiresDate, expired <= instant,
      entry.transaction.revocationDate.map({ $0 > instant }) ?? true
    else { return nil }
    if let grace = entry.renewal?.gracePeriodExpiresDate, instant < grace { return .gracePeriod }
    return .billingRetry
  }

  /// What in a customer's stored statuses has run out by `instant`: an active status whose
  /// expiry has passed, a billing-grace-period status whose grace period has ended. Such a
  /// customer must be asked again before it can be compared; nothing is guessed.
  ///
  /// - Parameters:
  ///   - data: the customer's stored data.
  ///   - customerKey: the customer's key, for the evidence.
  ///   - instant: the comparison instant.
  /// - Returns: the evidence, empty when the data still speaks for `instant`.
  public func staleness(of data: AppStoreCustomerData, customerKey: String, at instant: Timestamp)
    -> [StaleEvidence]
  {
    if let fetched = data.statusesSignedAt, instant < fetched { return [] }
    return data.statuses.compactMap { entry in
      guard let runsOut = entry.runsOutAt, runsOut <= instant else { return nil }
      let kind: StaleEvidence.Kind =
        entry.status == .active
        ? .activePastExpiry(expiresDate: runsOut)
        : .gracePeriodEnded(gracePeriodExpiresDate: runsOut)
      return StaleEvidence(
        customerKey: customerKey, group: entry.group, productId: entry.transaction.productId,
        signedDate: entry.signedDate, kind: kind)
    }
  }

  /// The entitlements a customer had at a past instant, reconstructed from the history alone:
  /// a subscription is revoked when its latest transaction by then was revoked by then, active
  /// while that transaction ran, and otherwise not entitled (the history cannot show billing
  /// retry or grace at a past instant, so those read as expired).
  ///
  /// - Parameters:
  ///   - transactions: the customer's history.
  ///   - instant: the past instant.
  /// - Returns: one view per key.
  public func reconstruct(_ transactions: [JWSTransaction], at instant: Timestamp)
    -> [EntitlementKey: EntitlementView]
  {
    var views: [EntitlementKey: EntitlementView] = [:]
    let subscriptions = transactions.filter {
      $0.type == .autoRenewableSubscription && ($0.purchaseDate ?? .distantFuture) <= instant
    }
    for (original, members) in Dictionary(
      grouping: subscriptions, by: { $0.originalTransactionId ?? "" })
    {
      guard
        let latest = members.max(by: {
          ($0.purchaseDate ?? .distantPast, $0.transactionId ?? "") < (
            $1.purchaseDate ?? .distantPast, $1.transactionId ?? ""
          )
        }), let group = latest.subscriptionGroupIdentifier
      else { continue }
      let status: EntitlementStatus
      if let revoked = latest.revocationDate, revoked <= instant {
        status = .revoked
      } else if let expires = latest.expiresDate, instant < expires {
        status = .active
      } else {
        status = .expired
      }
      var view = Self.view(of: latest, key: .subscriptionGroup(group), status: status)
      view.originalTransactionId = original
      views[view.key] = Self.better(views[view.key], view)
    }
    for view in oneTimeProducts(transactions, at: instant) {
      views[view.key] = Self.better(views[view.key], view)
    }
    return views
  }

  // MARK: - One-time products

  private func oneTimeProducts(_ transactions: [JWSTransaction], at instant: Timestamp)
    -> [EntitlementView]
  {
    let purchases = transactions.filter {
      ($0.type == .nonConsumable || $0.type == .nonRenewingSubscription)
        && ($0.purchaseDate ?? .distantFuture) <= instant
    }
    var views: [EntitlementView] = []
    for (product, members) in Dictionary(grouping: purchases, by: { $0.productId ?? "" }) {
      let owning = members.filter { transaction in
        guard let revoked = transaction.revocationDate else { return true }
        return revoked > instant
      }
      if members.contains(where: { $0.type == .nonRenewingSubscription }), !owning.isEmpty {
        views.append(nonRenewing(product, owning, at: instant))
        continue
      }
      // The customer's own purchase is the evidence of ownership, then the earliest one.
      let chosen =
        owning.min { Self.ownershipOrder($0) < Self.ownershipOrder($1) }
        ?? members.max { ($0.revocationDate ?? .distantPast) < ($1.revocationDate ?? .distantPast) }
      guard let chosen else { continue }
      views.append(
        Self.view(of: chosen, key: .product(product), status: owning.isEmpty ? .revoked : .active))
    }
    return views
  }

  /// A non-renewing subscription with purchases not revoked: active while one runs (for the
  /// catalogue's duration from its purchase date), expired once all have run out, unknown
  /// without a duration.
  private func nonRenewing(_ product: String, _ owning: [JWSTransaction], at instant: Timestamp)
    -> EntitlementView
  {
    guard let duration = catalog?[product]?.duration else {
      let chosen = owning.min { Self.ownershipOrder($0) < Self.ownershipOrder($1) } ?? owning[0]
      var view = Self.view(of: chosen, key: .product(product), status: .active)
      view.isDurationUnknown = true
      view.reason = "non-renewing; its duration is not in the catalogue"
      return view
    }
    let periods = owning.compactMap { transaction in
      transaction.purchaseDate.map { (transaction: transaction, end: duration.end(from: $0)) }
    }
    let running = periods.filter { $0.end > instant }
    // The purchase that runs longest decides the expiry.
    guard let chosen = (running.isEmpty ? periods : running).max(by: { $0.end < $1.end }) else {
      return Self.view(of: owning[0], key: .product(product), status: .expired)
    }
    var view = Self.view(
      of: chosen.transaction, key: .product(product), status: running.isEmpty ? .expired : .active)
    view.expiresDate = chosen.end
    return view
  }

  private static func ownershipOrder(_ transaction: JWSTransaction) -> (Int, Timestamp) {
    (
      transaction.inAppOwnershipType == .familyShared ? 1 : 0,
      transaction.purchaseDate ?? .distantFuture
    )
  }

  // MARK: - Views

  /// The view of a status entry.
  static func view(of entry: StatusEntry) -> EntitlementView {
    let status: EntitlementStatus
    switch entry.status {
    case .active: status = .active
    case .expired: status = .expired
    case .billingRetry: status = .billingRetry
    case .billingGracePeriod: status = .gracePeriod
    case .revoked: status = .revoked
    case .unknown: status = .expired  // an undocumented status grants nothing; the reason says so
    }
    var view = view(of: entry.transaction, key: .subscriptionGroup(entry.group), status: status)
    view.originalTransactionId = entry.originalTransactionId
    if let renewal = entry.renewal {
      view.autoRenewStatus = renewal.autoRenewStatus.map { $0 == .on }
      view.expirationIntent = renewal.expirationIntent?.rawValue
      if status == .gracePeriod { view.gracePeriodExpiresDate = renewal.gracePeriodExpiresDate }
    }
    if case .unknown(let raw) = entry.status { view.reason = "undocumented status \(raw)" }
    return view
  }

  /// The view of one transaction under a key and status.
  static func view(of transaction: JWSTransaction, key: EntitlementKey, status: EntitlementStatus)
    -> EntitlementView
  {
    var view = EntitlementView(key: key, status: status)
    view.productId = transaction.productId
    view.kind = transaction.type.flatMap(Self.kind)
    view.expiresDate = transaction.expiresDate
    view.ownership = transaction.inAppOwnershipType?.rawValue
    view.revocationDate = transaction.revocationDate
    view.revocationType = transaction.effectiveRevocationType?.rawValue
    view.revocationPercentage = transaction.revocationPercentage.map(Int64.init)
    view.offerType = transaction.offerType?.rawValue
    view.originalTransactionId = transaction.originalTransactionId
    view.transactionId = transaction.transactionId
    view.price = transaction.price
    view.currency = transaction.currency
    view.purchaseDate = transaction.purchaseDate
    return view
  }

  static func kind(_ type: TransactionType) -> ProductKind? {
    switch type {
    case .autoRenewableSubscription: return .autoRenewable
    case .nonConsumable: return .nonConsumable
    case .consumable: return .consumable
    case .nonRenewingSubscription: return .nonRenewing
    case .unknown: return nil
    }
  }

  /// The better of two views of one key: entitled beats not entitled; then the later expiry;
  /// then the customer's own purchase over a family-shared one; then the smaller original
  /// transaction id, so the choice never depends on input order.
  public static func better(_ current: EntitlementView?, _ candidate: EntitlementView)
    -> EntitlementView
  {
    guard let current else { return candidate }
    if current.isEntitled != candidate.isEntitled {
      return candidate.isEntitled ? candidate : current
    }
    let currentExpiry = current.expiresDate ?? .distantPast
    let candidateExpiry = candidate.expiresDate ?? .distantPast
    if currentExpiry != candidateExpiry {
      return candidateExpiry > currentExpiry ? candidate : current
    }
    if current.ownership != candidate.ownership {
      return candidate.ownership == "PURCHASED" ? candidate : current
    }
    return (candidate.originalTransactionId ?? "") < (current.originalTransactionId ?? "")
      ? candidate : current
  }
}
