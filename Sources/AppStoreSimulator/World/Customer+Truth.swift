import Chronology
import LegacyReceipts

// MARK: - What the App Store says at an instant

extension Customer {
  /// The Server API status of one subscription at an instant, with the transaction and
  /// renewal state it rests on: revoked when the latest transaction is revoked, active while it
  /// runs, else billing grace, billing retry or expired from the renewal state.
  ///
  /// - Parameters:
  ///   - originalTransactionId: the subscription.
  ///   - instant: the instant asked about.
  /// - Returns: the status, or `nil` when the subscription had not begun.
  public func subscriptionStatus(originalTransactionId: String, at instant: Timestamp)
    -> (status: EntitlementStatus, transaction: SimulatedTransaction, renewal: RenewalState?)?
  {
    let members = transactions.filter {
      $0.originalTransactionId == originalTransactionId && $0.kind == .autoRenewable
        && $0.purchaseDate <= instant
    }
    guard
      let latest = members.max(by: {
        ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId)
      })
    else {
      return nil
    }
    let renewal = renewals.first { $0.originalTransactionId == originalTransactionId }?.state(
      at: instant)
    if latest.revocation(at: instant) != nil { return (.revoked, latest, renewal) }
    if let expires = latest.expiresDate, instant < expires, !latest.isUpgraded(at: instant) {
      return (.active, latest, renewal)
    }
    if let renewal, renewal.isInBillingRetryPeriod {
      if let grace = renewal.gracePeriodExpiresDate, instant < grace {
        return (.gracePeriod, latest, renewal)
      }
      return (.billingRetry, latest, renewal)
    }
    return (.expired, latest, renewal)
  }

  /// The new logic's answer from the truth, per key: for each subscription group the best of
  /// its subscriptions (an entitled one, the later expiry first; else the most recent), for each
  /// non-consumable product owned unless every purchase was revoked, for each non-renewing
  /// subscription active while a purchase not revoked runs (the product's period from its
  /// purchase date), expired after. Consumables are never entitlements.
  ///
  /// - Parameters:
  ///   - instant: the instant asked about.
  ///   - products: the app's products, for the periods of non-renewing subscriptions.
  /// - Returns: one entitlement per key.
  public func truthEntitlements(
    at instant: Timestamp, products: [SimulatedProduct] = SimulatedProduct.catalogue
  ) -> [EntitlementKey: TruthEntitlement] {
    var result: [EntitlementKey: TruthEntitlement] = [:]
    let originals = Set(
      transactions.filter { $0.kind == .autoRenewable && $0.purchaseDate <= instant }.map(
        \.originalTransactionId))
    for original in originals.sorted() {
      guard
        let (status, transaction, _) = subscriptionStatus(
          originalTransactionId: original, at: instant),
        let group = transaction.group
      else { continue }
      let candidate = TruthEntitlement(
        key: .subscriptionGroup(group), status: status, productId: transaction.productId,
        expiresDate: transaction.expiresDate, revocation: transaction.revocation(at: instant),
        ownership: transaction.ownership, transactionId: transaction.transactionId,
        originalTransactionId: original)
      result[candidate.key] = Self.better(result[candidate.key], candidate)
    }
    let oneTime = transactions.filter {
      ($0.kind == .nonConsumable || $0.kind == .nonRenewing) && $0.purchaseDate <= instant
    }
    for product in Set(oneTime.map(\.productId)).sorted() {
      let purchases = oneTime.filter { $0.productId == product }
      let owning = purchases.filter { $0.revocation(at: instant) == nil }
      if let days = products.first(where: { $0.id == product && $0.kind == .nonRenewing })?
        .periodDays, !owning.isEmpty
      {
        let length = Int64(days) * Timestamp.millisecondsPerDay
        let latest = owning.max { $0.purchaseDate < $1.purchaseDate } ?? owning[0]
        let end = latest.purchaseDate.adding(milliseconds: length)
        result[.product(product)] = TruthEntitlement(
          key: .product(product), status: end > instant ? .active : .expired,
          productId: product, expiresDate: end, revocation: nil, ownership: latest.ownership,
          transactionId: latest.transactionId, originalTransactionId: latest.originalTransactionId)
        continue
      }
      // Prefer the customer's own purchase as the evidence, then the earliest.
      let chosen =
        owning.min {
          ($0.ownership == .familyShared ? 1 : 0, $0.purchaseDate) < (
            $1.ownership == .familyShared ? 1 : 0, $1.purchaseDate
          )
        }
        ?? purchases.max {
          ($0.revocation(at: instant)?.date ?? .distantPast)
            < ($1.revocation(at: instant)?.date ?? .distantPast)
        }
      guard let chosen else { continue }
      result[.product(product)] = TruthEntitlement(
        key: .product(product), status: owning.isEmpty ? .revoked : .active, productId: product,
        expiresDate: nil,
        revocation: owning.isEmpty ? chosen.revocation(at: instant) : nil,
        ownership: chosen.ownership,
        transactionId: chosen.transactionId, originalTransactionId: chosen.originalTransactionId)
    }
    return result
  }

  /// The better of two answers for the same key: entitled beats not entitled; between equals,
  /// the later expiry; between equal expiries, the own purchase.
  static func better(_ current: TruthEntitlement?, _ candidate: TruthEntitlement)
    -> TruthEntitlement
  {
    guard let current else { return candidate }
    if current.status.isEntitled != candidate.status.isEntitled {
      return candidate.status.isEntitled ? candidate : current
    }
    let currentExpiry = current.expiresDate ?? .distantPast
    let candidateExpiry = candidate.expiresDate ?? .distantPast
    if currentExpiry != candidateExpiry {
      return candidateExpiry > currentExpiry ? candidate : current
    }
    if current.ownership != candidate.ownership {
      return candidate.ownership == .purchased ? candidate : current
    }
    return candidate.originalTransactionId < current.originalTransactionId ? candidate : current
  }
}
