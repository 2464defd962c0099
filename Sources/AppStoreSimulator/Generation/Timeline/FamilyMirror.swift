import Chronology
import LegacyReceipts

/// Makes a family member's shared subscription follow the organiser's after the world's clock:
/// each new period of the organiser becomes a `FAMILY_SHARED` period of the member (with the
/// member's own ids), a refund of the organiser's period revokes the member's copy, and the
/// member may leave the family, which revokes the period under way (`FAMILY_REVOKE`).
struct FamilyMirror {
  let window: TimelineWindow
  /// The chance that the member leaves the family within the window.
  let leaveChance: Double
  /// Where the world's customer ids are numbered from.
  var identifierBase = 0

  /// Extends the member's shared subscription from the organiser's.
  ///
  /// - Parameters:
  ///   - organiser: the organiser, already extended.
  ///   - member: the member.
  ///   - random: the member's extension stream.
  func follow(_ organiser: Customer, member: inout Customer, random: inout SeededRandom) {
    let now = window.now
    let sharedIndices = member.transactions.indices.filter {
      member.transactions[$0].ownership == .familyShared
        && member.transactions[$0].kind == .autoRenewable
    }.sorted { member.transactions[$0].purchaseDate < member.transactions[$1].purchaseDate }
    guard let lastShared = sharedIndices.last,
      member.transactions[lastShared].revocation(at: now) == nil,
      let mirrored = organiser.transactions.first(where: {
        $0.ownership == .purchased && $0.productId == member.transactions[lastShared].productId
          && $0.expiresDate == member.transactions[lastShared].expiresDate
      })
    else { return }
    let original = member.transactions[lastShared].originalTransactionId
    let originalPurchase = member.transactions[lastShared].originalPurchaseDate
    let leftAt = random.chance(leaveChance) ? window.instant(after: now, random: &random) : nil
    var ids = IdentifierAllocator(
      customer: identifierBase + member.index, environment: member.environment)
    ids.skip(past: member.transactions.map(\.transactionId))

    // The period under way at the clock follows what happened to the organiser's.
    if let revocation = mirrored.revocation, revocation.date > now {
      member.transactions[lastShared].revocation = Revocation(
        date: revocation.date, kind: .familyRevoke, reason: 0)
    }
    if let upgraded = mirrored.upgradedAt, upgraded > now {
      member.transactions[lastShared].upgradedAt = upgraded
    }
    var covering = [lastShared]
    for period in organiser.transactions
    where period.originalTransactionId == mirrored.originalTransactionId
      && period.purchaseDate > now
    {
      if let leftAt, period.purchaseDate >= leftAt { break }
      let next = ids.transactionId()
      var copy = period
      copy.transactionId = next.transactionId
      copy.webOrderLineItemId = next.webOrderLineItemId
      copy.originalTransactionId = original
      copy.originalPurchaseDate = originalPurchase
      copy.ownership = .familyShared
      copy.priceMilli = 0
      copy.revocation = period.revocation.map {
        Revocation(date: $0.date, kind: .familyRevoke, reason: 0)
      }
      member.transactions.append(copy)
      covering.append(member.transactions.count - 1)
    }
    guard
      let offset = member.renewals.firstIndex(where: { $0.originalTransactionId == original }),
      let organiserTimeline = organiser.renewals.first(where: {
        $0.originalTransactionId == mirrored.originalTransactionId
      })
    else { return }
    var events = member.renewals[offset].events
    events += organiserTimeline.events.filter { event in
      event.at > now && leftAt.map { event.at < $0 } ?? true
    }
    if let leftAt {
      // The period under way when the member leaves is revoked.
      if let during = covering.last(where: { member.transactions[$0].purchaseDate <= leftAt }),
        member.transactions[during].expiresDate.map({ $0 > leftAt }) ?? false,
        member.transactions[during].revocation == nil
      {
        member.transactions[during].revocation = Revocation(
          date: leftAt, kind: .familyRevoke, reason: 0)
      }
      events.append(
        (
          leftAt,
          RenewalState(
            autoRenewStatus: false,
            autoRenewProductId: member.transactions[covering.last ?? lastShared].productId)
        ))
      member.story.append("left the family on \(leftAt)")
    }
    member.renewals[offset].events = events.enumerated().sorted {
      ($0.element.at, $0.offset) < ($1.element.at, $1.offset)
    }.map(\.element)
  }
}
