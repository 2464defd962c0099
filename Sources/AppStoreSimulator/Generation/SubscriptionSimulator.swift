import Chronology
import LegacyReceipts

/// Plays a ``SubscriptionPlan`` forward in time: every period a transaction, every change of
/// renewal state a dated event, until the plan ends or the world's now is reached.
struct SubscriptionSimulator {
  let now: Timestamp
  let gracePeriodDays: Int

  struct Outcome {
    var transactions: [SimulatedTransaction] = []
    var timeline: RenewalTimeline
    var story: [String] = []
  }

  func simulate(
    _ plan: SubscriptionPlan, ids: inout IdentifierAllocator, random: inout SeededRandom
  ) -> Outcome {
    var product = plan.product
    let group = product.group ?? "unknown"
    let first = ids.transactionId()
    let original = first.transactionId
    var outcome = Outcome(
      timeline: RenewalTimeline(originalTransactionId: original, group: group, events: []))
    var events: [(at: Timestamp, state: RenewalState)] = [
      (plan.start, RenewalState(autoRenewStatus: true, autoRenewProductId: product.id))
    ]
    var periodStart = plan.start
    var period = 0
    var ending = plan.ending
    var pendingProduct: SimulatedProduct?
    var comebackOffer: Offer?
    var comeback = plan.comeback
    var nextIds: (transactionId: String, webOrderLineItemId: String)? = first
    // Apple: a first purchase, an immediate upgrade and a resubscription after a lapse are
    // purchases; only automatic renewals (billing recovery included) are renewals.
    var reason = "PURCHASE"
    outcome.story.append("subscribed to \(product.id) on \(plan.start)")

    periods: while periodStart < now {
      let length = Int64(product.periodDays ?? 30) * Timestamp.millisecondsPerDay
      let expires = periodStart.adding(milliseconds: length)
      let ids = nextIds ?? ids.transactionId()
      nextIds = nil
      var offer: Offer?
      if period == 0 && plan.introductoryTrial {
        offer = Offer(
          type: 1, identifier: nil, discountType: "FREE_TRIAL",
          period: product.periodDays == 365 ? "P1M" : "P1W")
      } else if let comebackOffer {
        offer = comebackOffer
      }
      comebackOffer = nil
      outcome.transactions.append(
        SimulatedTransaction(
          transactionId: ids.transactionId, originalTransactionId: original,
          webOrderLineItemId: ids.webOrderLineItemId,
          productId: product.id, kind: .autoRenewable, group: group, purchaseDate: periodStart,
          originalPurchaseDate: plan.start, expiresDate: expires, ownership: .purchased,
          reason: reason, offer: offer,
          priceMilli: offer?.type == 1 ? 0 : product.priceMilli))
      let current = outcome.transactions.count - 1
      reason = "RENEWAL"

      // An immediate upgrade inside this period starts a new period at once.
      if case .upgrade(let upgradePeriod, let day, let target)? = plan.change,
        upgradePeriod == period
      {
        let moment = periodStart.adding(milliseconds: Int64(day) * Timestamp.millisecondsPerDay)
        if moment < now && moment < expires {
          outcome.transactions[current].upgradedAt = moment
          product = target
          events.append(
            (moment, RenewalState(autoRenewStatus: true, autoRenewProductId: target.id)))
          outcome.story.append("upgraded to \(target.id) on \(moment)")
          periodStart = moment
          period += 1
          reason = "PURCHASE"
          continue periods
        }
      }
      // A downgrade or crossgrade is chosen now and takes effect at renewal.
      if case .atRenewal(let changePeriod, let target, let label)? = plan.change,
        changePeriod == period
      {
        let moment = periodStart.adding(milliseconds: length / 2)
        if moment < now {
          events.append(
            (moment, RenewalState(autoRenewStatus: true, autoRenewProductId: target.id)))
          pendingProduct = target
          outcome.story.append("\(label) to \(target.id) chosen on \(moment), effective at renewal")
        }
      }

      switch ending {
      case .refund(let refundPeriod, let kind, let days) where refundPeriod == period:
        let moment = periodStart.adding(milliseconds: Int64(days) * Timestamp.millisecondsPerDay)
        guard moment < now else { break }
        outcome.transactions[current].revocation = Revocation(
          date: moment, kind: kind, reason: random.chance(0.3) ? 1 : 0,
          percentageMilli: kind == .refundProrated ? Int64(random.int(in: 20...80)) * 1000 : nil)
        events.append(
          (
            moment,
            RenewalState(
              autoRenewStatus: false, autoRenewProductId: product.id,
              expirationIntent: .customerCancelled)
          ))
        outcome.story.append(
          "\(kind == .refundFull ? "refunded" : "refunded in part") on \(moment)")
        break periods
      case .churn(let afterPeriods, let intent) where afterPeriods == period + 1:
        if intent == 3 {
          let notice = expires.adding(
            milliseconds: -Int64(plan.priceIncreaseNoticeDays) * Timestamp.millisecondsPerDay)
          if notice < now {
            events.append(
              (
                max(notice, periodStart),
                RenewalState(
                  autoRenewStatus: true, autoRenewProductId: product.id, priceIncreaseStatus: 0)
              ))
          }
        }
        if intent == 1 {
          let off = periodStart.adding(
            milliseconds: Int64(Double(length) * (0.2 + 0.6 * random.unit())))
          if off < now {
            events.append(
              (off, RenewalState(autoRenewStatus: false, autoRenewProductId: product.id)))
          }
        }
        guard expires < now else { break periods }
        events.append(
          (
            expires,
            RenewalState(
              autoRenewStatus: false, autoRenewProductId: product.id,
              expirationIntent: ExpirationIntent(rawValue: intent))
          ))
        outcome.story.append("expired on \(expires) (\(ExpirationIntent(rawValue: intent)))")
        if let back = comeback {
          let restart = expires.adding(
            milliseconds: Int64(back.afterDays) * Timestamp.millisecondsPerDay)
          guard restart < now else { break periods }
          events.append(
            (restart, RenewalState(autoRenewStatus: true, autoRenewProductId: product.id)))
          outcome.story.append("came back on \(restart) with offer type \(back.offer.type)")
          comebackOffer = back.offer
          comeback = nil
          ending = .none
          periodStart = restart
          period += 1
          reason = "PURCHASE"
          continue periods
        }
        break periods
      case .billingFailure(let afterPeriods, let result) where afterPeriods == period + 1:
        guard expires < now else { break periods }
        let grace = expires.adding(
          milliseconds: Int64(gracePeriodDays) * Timestamp.millisecondsPerDay)
        events.append(
          (
            expires,
            RenewalState(
              autoRenewStatus: true, autoRenewProductId: product.id,
              expirationIntent: .billingError,
              isInBillingRetryPeriod: true, gracePeriodExpiresDate: grace)
          ))
        outcome.story.append("billing failed on \(expires)")
        switch result {
        case .recovered(let days):
          let recovery = expires.adding(milliseconds: Int64(days) * Timestamp.millisecondsPerDay)
          guard recovery < now else { break periods }
          events.append(
            (recovery, RenewalState(autoRenewStatus: true, autoRenewProductId: product.id)))
          outcome.story.append("billing recovered on \(recovery)")
          periodStart = recovery
          period += 1
          continue periods
        case .gaveUp:
          let end = expires.adding(milliseconds: 60 * Timestamp.millisecondsPerDay)
          if end < now {
            events.append(
              (
                end,
                RenewalState(
                  autoRenewStatus: false, autoRenewProductId: product.id,
                  expirationIntent: .billingError)
              ))
            outcome.story.append("billing retry ended on \(end)")
          }
          break periods
        case .stillFailing:
          break periods
        }
      default:
        break
      }
      periodStart = expires
      period += 1
      if let target = pendingProduct {
        product = target
        pendingProduct = nil
      }
    }
    outcome.timeline.events = events.sorted { $0.at < $1.at }
    return outcome
  }
}
