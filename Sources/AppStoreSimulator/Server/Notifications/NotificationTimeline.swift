import AppStoreServerAPI
import Chronology
import LegacyReceipts

/// Derives the notifications (version 2) the App Store sent about one customer from the world's
/// dated facts: purchases, renewals, upgrades, refunds and revocations from the transactions,
/// and renewal-status, renewal-preference, billing and expiry changes from the renewal
/// timelines.
struct NotificationTimeline {
  let customer: Customer
  let position: Int
  let now: Timestamp
  let products: [String: SimulatedProduct]

  /// Every notification up to `now`, in time order.
  func records() -> [NotificationRecord] {
    var records: [NotificationRecord] = []
    let owned = customer.transactions.filter { $0.purchaseDate <= now }
    let subscriptions = Dictionary(
      grouping: owned.filter { $0.kind == .autoRenewable }, by: \.originalTransactionId)
    for original in subscriptions.keys.sorted() {
      let periods = (subscriptions[original] ?? []).sorted {
        ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId)
      }
      let timeline = customer.renewals.first { $0.originalTransactionId == original }
      records += purchases(periods, timeline: timeline)
      if let timeline { records += renewalChanges(timeline, periods: periods) }
    }
    for transaction in owned where transaction.kind != .autoRenewable {
      if transaction.ownership != .familyShared {
        records.append(record(.oneTimeCharge, nil, at: transaction.purchaseDate, transaction))
      }
    }
    for transaction in owned {
      // A refund reversed later was still announced when it happened.
      guard let revocation = transaction.revocation, revocation.date <= now else { continue }
      records.append(
        record(
          revocation.kind == .familyRevoke ? .revoke : .refund, nil, at: revocation.date,
          transaction))
      if let reversed = revocation.reversedAt, reversed <= now {
        records.append(record(.refundReversed, nil, at: reversed, transaction))
      }
    }
    return records.filter { $0.date <= now }.sorted {
      ($0.date, $0.transactionId) < ($1.date, $1.transactionId)
    }
  }

  // MARK: - Purchases

  private func purchases(_ periods: [SimulatedTransaction], timeline: RenewalTimeline?)
    -> [NotificationRecord]
  {
    var records: [NotificationRecord] = []
    for (offset, period) in periods.enumerated() {
      guard offset > 0 else {
        records.append(record(.subscribed, .initialBuy, at: period.purchaseDate, period))
        continue
      }
      let previous = periods[offset - 1]
      let previousEnd = previous.expiresDate ?? previous.purchaseDate
      if let upgraded = previous.upgradedAt, upgraded == period.purchaseDate {
        records.append(record(.didChangeRenewalPref, .upgrade, at: period.purchaseDate, period))
      } else if period.purchaseDate > previousEnd {
        // A late renewal: a recovery from billing retry, or a new purchase after a lapse.
        let justBefore = period.purchaseDate.adding(milliseconds: -1)
        if timeline?.state(at: justBefore)?.isInBillingRetryPeriod == true {
          records.append(record(.didRenew, .billingRecovery, at: period.purchaseDate, period))
        } else {
          records.append(record(.subscribed, .resubscribe, at: period.purchaseDate, period))
        }
      } else {
        records.append(record(.didRenew, nil, at: period.purchaseDate, period))
      }
    }
    return records
  }

  // MARK: - Renewal changes

  private func renewalChanges(_ timeline: RenewalTimeline, periods: [SimulatedTransaction])
    -> [NotificationRecord]
  {
    var records: [NotificationRecord] = []
    let purchaseInstants = Set(periods.map(\.purchaseDate))
    let revocationInstants = Set(
      periods.compactMap { $0.revocation.flatMap { $0.date <= now ? $0.date : nil } })
    var previous: RenewalState?
    for (instant, state) in timeline.events where instant <= now {
      defer { previous = state }
      guard let before = previous,
        let period = periods.last(where: { $0.purchaseDate <= instant }) ?? periods.first
      else { continue }
      // A purchase or a refund at the same instant has its own notification.
      let isPurchase = purchaseInstants.contains(instant)
      let isRefund = revocationInstants.contains(instant)
      if !before.isInBillingRetryPeriod && state.isInBillingRetryPeriod {
        let subtype: NotificationSubtype? = state.gracePeriodExpiresDate == nil ? nil : .gracePeriod
        records.append(record(.didFailToRenew, subtype, at: instant, period))
        if let grace = state.gracePeriodExpiresDate, grace <= now,
          timeline.state(at: grace)?.isInBillingRetryPeriod == true
        {
          records.append(record(.gracePeriodExpired, nil, at: grace, period))
        }
      } else if let intent = state.expirationIntent,
        before.expirationIntent == nil || before.isInBillingRetryPeriod,
        !state.isInBillingRetryPeriod, !isRefund
      {
        records.append(record(.expired, Self.expirySubtype(intent), at: instant, period))
      } else if before.autoRenewStatus != state.autoRenewStatus, !isPurchase, !isRefund {
        records.append(
          record(
            .didChangeRenewalStatus, state.autoRenewStatus ? .autoRenewEnabled : .autoRenewDisabled,
            at: instant, period))
      } else if before.autoRenewProductId != state.autoRenewProductId, !isPurchase {
        let from = products[before.autoRenewProductId]?.level ?? 0
        let to = products[state.autoRenewProductId]?.level ?? 0
        // Level 1 is the highest: a larger number is a lower level.
        records.append(
          record(.didChangeRenewalPref, to > from ? .downgrade : nil, at: instant, period))
      }
      if before.priceIncreaseStatus != state.priceIncreaseStatus,
        let status = state.priceIncreaseStatus
      {
        records.append(
          record(.priceIncrease, status == 0 ? .pending : .accepted, at: instant, period))
      }
    }
    return records
  }

  private static func expirySubtype(_ intent: LegacyReceipts.ExpirationIntent)
    -> NotificationSubtype?
  {
    switch intent.rawValue {
    case 1: .voluntary
    case 2: .billingRetry
    case 3: .priceIncrease
    case 4: .productNotForSale
    default: nil
    }
  }

  private func record(
    _ type: NotificationType, _ subtype: NotificationSubtype?, at date: Timestamp,
    _ transaction: SimulatedTransaction
  ) -> NotificationRecord {
    NotificationRecord(
      type: type, subtype: subtype, date: date, customer: position,
      transactionId: transaction.transactionId,
      originalTransactionId: transaction.kind == .autoRenewable
        ? transaction.originalTransactionId : nil)
  }
}
