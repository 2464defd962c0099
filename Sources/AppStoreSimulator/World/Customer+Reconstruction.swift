import Chronology
import LegacyReceipts

// MARK: - What data fetched later says about an earlier instant

extension Customer {
  /// What App Store data fetched at `fetch` says about an earlier `instant`, by the rules of
  /// `Documentation/Discrepancies.md`: each subscription from its latest transaction purchased by
  /// `instant`, as that transaction stood at `fetch` (revoked when a revocation in effect at
  /// `fetch` dates from `instant` or before; active while it ran; else expired) — except that a
  /// billing-retry or grace-period status at `fetch` whose transaction had expired by `instant`
  /// proves billing trouble since that expiry: grace at `instant` before the grace period's end,
  /// billing retry after. One-time products and non-renewing subscriptions likewise, from
  /// purchases by `instant` and revocations known at `fetch`.
  ///
  /// Written apart from the comparison's reconstruction, on purpose: the two must agree.
  ///
  /// - Parameters:
  ///   - instant: the comparison instant.
  ///   - fetch: when the data was fetched (after `instant`).
  ///   - products: the app's products, for non-renewing periods.
  /// - Returns: one entitlement per key.
  public func reconstructedEntitlements(
    at instant: Timestamp, fetchedAt fetch: Timestamp,
    products: [SimulatedProduct] = SimulatedProduct.catalogue
  ) -> [EntitlementKey: TruthEntitlement] {
    func revokedBy(_ transaction: SimulatedTransaction) -> Revocation? {
      transaction.revocation(at: fetch).flatMap { $0.date <= instant ? $0 : nil }
    }
    var result: [EntitlementKey: TruthEntitlement] = [:]
    let subscriptions = transactions.filter {
      $0.kind == .autoRenewable && $0.purchaseDate <= instant
    }
    for original in Set(subscriptions.map(\.originalTransactionId)).sorted() {
      guard
        let latest = subscriptions.filter({ $0.originalTransactionId == original }).max(by: {
          ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId)
        }), let group = latest.group
      else { continue }
      var status: EntitlementStatus
      var deciding = latest
      if revokedBy(latest) != nil {
        status = .revoked
      } else if let expires = latest.expiresDate, instant < expires {
        status = .active
      } else {
        status = .expired
        if let (later, transaction, renewal) = subscriptionStatus(
          originalTransactionId: original, at: fetch),
          later == .gracePeriod || later == .billingRetry,
          let expired = transaction.expiresDate, expired <= instant,
          revokedBy(transaction) == nil
        {
          let grace = renewal?.gracePeriodExpiresDate
          status = grace.map { instant < $0 } == true ? .gracePeriod : .billingRetry
          deciding = transaction
        }
      }
      let candidate = TruthEntitlement(
        key: .subscriptionGroup(group), status: status, productId: deciding.productId,
        expiresDate: deciding.expiresDate, revocation: revokedBy(deciding),
        ownership: deciding.ownership, transactionId: deciding.transactionId,
        originalTransactionId: original)
      result[candidate.key] = Self.better(result[candidate.key], candidate)
    }
    let oneTime = transactions.filter {
      ($0.kind == .nonConsumable || $0.kind == .nonRenewing) && $0.purchaseDate <= instant
    }
    for product in Set(oneTime.map(\.productId)).sorted() {
      let purchases = oneTime.filter { $0.productId == product }
      let owning = purchases.filter { revokedBy($0) == nil }
      if let days = products.first(where: { $0.id == product && $0.kind == .nonRenewing })?
        .periodDays, !owning.isEmpty
      {
        let latest = owning.max { $0.purchaseDate < $1.purchaseDate } ?? owning[0]
        let end = latest.purchaseDate.adding(
          milliseconds: Int64(days) * Timestamp.millisecondsPerDay)
        result[.product(product)] = TruthEntitlement(
          key: .product(product), status: end > instant ? .active : .expired,
          productId: product, expiresDate: end, revocation: nil, ownership: latest.ownership,
          transactionId: latest.transactionId, originalTransactionId: latest.originalTransactionId)
        continue
      }
      let chosen =
        owning.min {
          ($0.ownership == .familyShared ? 1 : 0, $0.purchaseDate) < (
            $1.ownership == .familyShared ? 1 : 0, $1.purchaseDate
          )
        }
        ?? purchases.max {
          (revokedBy($0)?.date ?? .distantPast) < (revokedBy($1)?.date ?? .distantPast)
        }
      guard let chosen else { continue }
      result[.product(product)] = TruthEntitlement(
        key: .product(product), status: owning.isEmpty ? .revoked : .active, productId: product,
        expiresDate: nil, revocation: owning.isEmpty ? revokedBy(chosen) : nil,
        ownership: chosen.ownership, transactionId: chosen.transactionId,
        originalTransactionId: chosen.originalTransactionId)
    }
    return result
  }
}
