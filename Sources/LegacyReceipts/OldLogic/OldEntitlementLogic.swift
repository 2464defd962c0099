import Chronology

/// The reference "old" entitlement logic of `/verifyReceipt` (see "The reference old
/// entitlement logic" in the legacy receipts reference): what a careful receipt-based server
/// decides for each subscription group and one-time product at an instant.
///
/// Pure: it reads nothing but its arguments, and the instant is a parameter — evaluate it at
/// the response's own `request_date` (what the old system believed then) and at the
/// comparison instant (what the same logic says now).
///
/// Configured with ``LegacyLogicFlaw``s it reproduces the bugs of real legacy code instead.
public struct OldEntitlementLogic: Sendable {
  /// The bugs to reproduce; empty for the reference logic.
  public var flaws: Set<LegacyLogicFlaw>
  /// The team's product catalogue, when known: it tells consumables and non-renewing
  /// subscriptions apart and supplies missing subscription groups.
  public var catalog: ProductCatalog?
  /// How close (in ms) a different product's start must be to a cancellation for the
  /// cancellation to be read as an upgrade rather than a refund.
  public var upgradeWindowMilliseconds: Int64

  /// Creates the logic.
  ///
  /// - Parameters:
  ///   - flaws: bugs to reproduce (none for the reference logic).
  ///   - catalog: the product catalogue, if any.
  ///   - upgradeWindowMilliseconds: the upgrade-versus-refund window (default 60 s).
  public init(
    flaws: Set<LegacyLogicFlaw> = [], catalog: ProductCatalog? = nil,
    upgradeWindowMilliseconds: Int64 = 60_000
  ) {
    self.flaws = flaws
    self.catalog = catalog
    self.upgradeWindowMilliseconds = upgradeWindowMilliseconds
  }

  /// Evaluates a response at an instant.
  ///
  /// - Parameters:
  ///   - response: a stored response; one with an error status yields nothing.
  ///   - instant: the instant T at which to decide.
  ///   - storedOriginalTransactionId: the one id a team with
  ///     ``LegacyLogicFlaw/filtersByOneOriginalId`` kept for the whole account (see
  ///     ``storedOriginalTransactionId(in:)``); when `nil`, this response's own first purchase.
  ///     Other logics ignore it.
  /// - Returns: one entitlement per subscription group and per one-time product, sorted by key.
  ///   Consumables are never entitlements and are not listed.
  public func evaluate(
    _ response: VerifyReceiptResponse, at instant: Timestamp,
    storedOriginalTransactionId: String? = nil
  ) -> [OldEntitlement] {
    guard response.status.carriesTransactions else { return [] }
    var transactions = visibleTransactions(of: response).filter {
      ($0.purchaseDate ?? Timestamp(millisecondsSince1970: .min)) <= instant
    }
    if flaws.contains(.filtersByOneOriginalId),
      var stored = storedOriginalTransactionId ?? Self.storedOriginalTransactionId(in: [response])
    {
      if flaws.contains(.losesIdPrecision) { stored = Self.throughDouble(stored) }
      transactions = transactions.filter { $0.originalTransactionId == stored }
    }
    let renewals = visibleRenewals(of: response)
    var subscriptionGroups: [EntitlementKey: [LegacyTransaction]] = [:]
    var oneTimeProducts: [String: [LegacyTransaction]] = [:]
    let groups = GroupResolver(transactions: transactions, catalog: catalog)
    for transaction in transactions {
      switch kind(of: transaction) {
      case .autoRenewable:
        subscriptionGroups[groups.key(for: transaction), default: []].append(transaction)
      case .nonConsumable, .nonRenewing:
        oneTimeProducts[transaction.productId ?? "", default: []].append(transaction)
      case .consumable:
        // Consumables grant nothing to keep, unless the code counts them as products.
        if flaws.contains(.consumablesCountAsOwned) {
          oneTimeProducts[transaction.productId ?? "", default: []].append(transaction)
        }
      }
    }
    var entitlements: [OldEntitlement] = []
    let isValidReceipt = response.status == .valid
    for (key, members) in subscriptionGroups {
      entitlements.append(
        evaluateSubscription(
          key, members, renewals: renewals, at: instant, isValidReceipt: isValidReceipt))
    }
    for (product, members) in oneTimeProducts {
      entitlements.append(evaluateOneTime(product, members, at: instant))
    }
    return entitlements.sorted { $0.key < $1.key }
  }

  // MARK: - What the logic looks at

  /// The transactions this logic reads: the merged, deduplicated set for the reference; what
  /// a flawed implementation would have seen otherwise.
  private func visibleTransactions(of response: VerifyReceiptResponse) -> [LegacyTransaction] {
    var transactions: [LegacyTransaction]
    if flaws.contains(.mishandlesIOS6Shape) && response.shape == .iOS6 {
      // The object-shaped latest_receipt_info is not an array, so such code finds nothing in it.
      transactions = response.receipt?.inApp ?? []
    } else if flaws.contains(.readsInAppInsteadOfLatest) {
      transactions = response.receipt?.inApp ?? []
    } else {
      transactions = response.mergedTransactions
    }
    // A transaction whose date, product or upgrade flag was set aside at ingest cannot be
    // placed in time or in its group: leaving it out is the only reading that is not a guess
    // (the comparison says so among the account's findings).
    transactions.removeAll { $0.isIncomplete }
    if flaws.contains(.losesIdPrecision) {
      transactions = transactions.map { transaction in
        var copy = transaction
        copy.transactionId = transaction.transactionId.map(Self.throughDouble)
        copy.originalTransactionId = transaction.originalTransactionId.map(Self.throughDouble)
        return copy
      }
    }
    return transactions
  }

  private func visibleRenewals(of response: VerifyReceiptResponse) -> [String: LegacyRenewalInfo] {
    if flaws.contains(.mishandlesIOS6Shape) && response.shape == .iOS6 { return [:] }
    var renewals: [String: LegacyRenewalInfo] = [:]
    for info in response.pendingRenewalInfo where !info.isIncomplete {
      guard var id = info.originalTransactionId else { continue }
      if flaws.contains(.losesIdPrecision) { id = Self.throughDouble(id) }
      renewals[id] = info
    }
    return renewals
  }

  /// The `original_transaction_id` a team that keeps one id per account would have stored: that
  /// of the account's first purchase (earliest original purchase date, then the smallest id)
  /// across all of its responses.
  ///
  /// - Parameter responses: every stored response of the account.
  /// - Returns: the id, or `nil` when no response carries a transaction.
  public static func storedOriginalTransactionId(in responses: [VerifyReceiptResponse]) -> String? {
    var first: (date: Timestamp, id: String)?
    for response in responses where response.status.carriesTransactions {
      for transaction in response.mergedTransactions {
        guard let id = transaction.originalTransactionId else { continue }
        let date = transaction.originalPurchaseDate ?? transaction.purchaseDate ?? .distantPast
        if let current = first, (current.date, current.id) <= (date, id) { continue }
        first = (date, id)
      }
    }
    return first?.id
  }

  /// What an id becomes after a round trip through a `Double`.
  static func throughDouble(_ id: String) -> String {
    guard let value = Double(id), value.isFinite, abs(value) < 9.2e18 else { return id }
    return String(Int64(value))
  }

  private func kind(of transaction: LegacyTransaction) -> ProductKind {
    if let product = transaction.productId, let known = catalog?[product]?.kind { return known }
    return transaction.expiresDate != nil ? .autoRenewable : .nonConsumable
  }

  /// The cancellation this logic reads: none when it ignores cancellations, and none on an
  /// `is_upgraded` row when it keeps such rows as ordinary ones.
  private func cancellation(of transaction: LegacyTransaction) -> Timestamp? {
    if flaws.contains(.ignoresCancellation) { return nil }
    if flaws.contains(.keepsUpgradedRows) && transaction.isUpgraded { return nil }
    return transaction.cancellationDate
  }

  /// When a subscription period ends for this logic: its expiry, and a fixed week later for
  /// logic that adds its own grace days.
  private func effectiveExpiry(_ expires: Timestamp) -> Timestamp {
    guard flaws.contains(.addsFixedGraceDays) else { return expires }
    return expires.adding(
      milliseconds: Int64(LegacyLogicFlaw.fixedGraceDays) * Timestamp.millisecondsPerDay)
  }

  /// Whether this logic skips a row because an upgrade replaced it.
  private func skipsAsUpgraded(_ transaction: LegacyTransaction) -> Bool {
    transaction.isUpgraded && !flaws.contains(.keepsUpgradedRows)
  }

  /// The latest cancellation of any row, for logic that reads every cancellation as a
  /// revocation of the whole entitlement.
  private func anyCancellation(among members: [LegacyTransaction], at instant: Timestamp)
    -> (transaction: LegacyTransaction, date: Timestamp)?
  {
    guard flaws.contains(.anyCancellationRevokes) else { return nil }
    return members.compactMap { transaction in
      cancellation(of: transaction).flatMap { $0 <= instant ? (transaction, $0) : nil }
    }.max { $0.date < $1.date }
  }

  // MARK: - Subscriptions

  private func evaluateSubscription(
    _ key: EntitlementKey, _ members: [LegacyTransaction], renewals: [String: LegacyRenewalInfo],
    at instant: Timestamp, isValidReceipt: Bool
  ) -> OldEntitlement {
    let current: [LegacyTransaction]
    if flaws.contains(.takesLastArrayElement),
      let last = members.last(where: { $0.origin == .latestReceiptInfo }) ?? members.last
    {
      // Array order means nothing (Apple changed it in 2020), yet such code trusts it.
      current = [last]
    } else if flaws.contains(.takesFirstArrayElement),
      let first = members.first(where: { $0.origin == .latestReceiptInfo }) ?? members.first
    {
      current = [first]
    } else {
      current = members
    }
    if flaws.contains(.status0MeansSubscribed), isValidReceipt,
      let latest = current.filter({ !skipsAsUpgraded($0) }).max(by: Self.byExpiryThenPurchase)
        ?? current.max(by: Self.byExpiryThenPurchase)
    {
      // "The receipt is valid" read as "the customer is subscribed".
      var entitlement = makeSubscription(key, .active, latest, renewals)
      entitlement.reason = "treated as active because the receipt's status is 0"
      return entitlement
    }
    if let (cancelled, date) = anyCancellation(among: current, at: instant) {
      var entitlement = makeSubscription(key, .revoked, cancelled, renewals)
      entitlement.revocationDate = date
      entitlement.reason = "revoked because a row has cancellation_date \(date)"
      return entitlement
    }
    let active = current.filter { transaction in
      guard let expires = transaction.expiresDate, instant < effectiveExpiry(expires),
        !skipsAsUpgraded(transaction)
      else {
        return false
      }
      if let cancelled = cancellation(of: transaction), cancelled <= instant { return false }
      return true
    }
    if let chosen = active.max(by: Self.byExpiryThenPurchase) {
      let renewal = chosen.originalTransactionId.flatMap { renewals[$0] }
      if flaws.contains(.autoRenewOffMeansExpired), renewal?.autoRenewStatus == false {
        var entitlement = makeSubscription(key, .expired, chosen, renewals)
        entitlement.reason = "treated as expired because auto_renew_status is 0"
        return entitlement
      }
      var entitlement = makeSubscription(key, .active, chosen, renewals)
      entitlement.reason =
        chosen.expiresDate.map { instant < $0 } ?? true
        ? "active until \(Self.text(chosen.expiresDate))"
        : "treated as active until \(Self.text(chosen.expiresDate.map(effectiveExpiry))) "
          + "(\(LegacyLogicFlaw.fixedGraceDays) days of its own grace after the expiry)"
      return entitlement
    }
    // Nothing covers the instant: decide on the latest subscription that really ended
    // (upgraded-from transactions ended because another product replaced them).
    let ended = current.filter { !isUpgradeReplacement($0, among: members, at: instant) }
    guard let latest = (ended.isEmpty ? current : ended).max(by: Self.byExpiryThenPurchase) else {
      return OldEntitlement(
        key: key, status: .expired, kind: .autoRenewable, reason: "no transactions")
    }
    if let cancelled = cancellation(of: latest), cancelled <= instant {
      var entitlement = makeSubscription(key, .revoked, latest, renewals)
      entitlement.revocationDate = cancelled
      let how = latest.ownershipType == .familyShared ? "removed from Family Sharing" : "refunded"
      entitlement.reason = "\(how) on \(cancelled)"
      return entitlement
    }
    let renewal = latest.originalTransactionId.flatMap { renewals[$0] }
    if !flaws.contains(.noGracePeriod), let grace = renewal?.gracePeriodExpiresDate, instant < grace
    {
      var entitlement = makeSubscription(key, .gracePeriod, latest, renewals)
      entitlement.gracePeriodExpiresDate = grace
      entitlement.reason = "in the billing grace period until \(grace)"
      return entitlement
    }
    if renewal?.isInBillingRetryPeriod == true {
      if flaws.contains(.autoRenewMeansEntitled) && renewal?.autoRenewStatus == true {
        var entitlement = makeSubscription(key, .active, latest, renewals)
        entitlement.reason = "treated as active because auto_renew_status is 1 (billing retry)"
        return entitlement
      }
      var entitlement = makeSubscription(key, .billingRetry, latest, renewals)
      entitlement.reason = "in billing retry since \(Self.text(latest.expiresDate))"
      return entitlement
    }
    if flaws.contains(.missingIntentMeansActive) && renewal?.expirationIntent == nil {
      var entitlement = makeSubscription(key, .active, latest, renewals)
      entitlement.reason = "treated as active because expiration_intent is missing"
      return entitlement
    }
    var entitlement = makeSubscription(key, .expired, latest, renewals)
    let why = renewal?.expirationIntent.map { " (\($0))" } ?? ""
    entitlement.reason = "expired on \(Self.text(latest.expiresDate))\(why)"
    return entitlement
  }

  /// Whether a transaction ended because the customer moved to another product of the group:
  /// marked `is_upgraded`, or cancelled at the moment another product started (old data marks
  /// upgrades that way too).
  private func isUpgradeReplacement(
    _ transaction: LegacyTransaction, among members: [LegacyTransaction], at instant: Timestamp
  ) -> Bool {
    if transaction.isUpgraded { return skipsAsUpgraded(transaction) }
    guard let cancelled = transaction.cancellationDate, cancelled <= instant else { return false }
    return members.contains { other in
      guard other.productId != transaction.productId, let start = other.purchaseDate else {
        return false
      }
      return abs(start.milliseconds(since: cancelled)) <= upgradeWindowMilliseconds
    }
  }

  private func makeSubscription(
    _ key: EntitlementKey, _ status: EntitlementStatus, _ transaction: LegacyTransaction,
    _ renewals: [String: LegacyRenewalInfo]
  ) -> OldEntitlement {
    var entitlement = OldEntitlement(key: key, status: status, kind: .autoRenewable, reason: "")
    entitlement.productId = transaction.productId
    entitlement.expiresDate = transaction.expiresDate
    entitlement.ownership = transaction.ownershipType
    entitlement.originalTransactionId = transaction.originalTransactionId
    entitlement.transactionId = transaction.transactionId
    let renewal = transaction.originalTransactionId.flatMap { renewals[$0] }
    entitlement.autoRenewStatus = renewal?.autoRenewStatus
    if !status.isEntitled || status == .gracePeriod {
      entitlement.expirationIntent = renewal?.expirationIntent
    }
    return entitlement
  }

  // MARK: - One-time purchases

  /// Non-consumables: owned when any purchase of the product is not revoked — restores create
  /// new transaction ids, so ownership is counted by product. Non-renewing subscriptions: a
  /// purchase grants access for the catalogue's duration from its purchase date; without a
  /// duration the entitlement is marked unknown, never owned forever.
  private func evaluateOneTime(
    _ product: String, _ members: [LegacyTransaction], at instant: Timestamp
  ) -> OldEntitlement {
    let kind = catalog?[product]?.kind ?? .nonConsumable
    let revokedByAnyCancellation = anyCancellation(among: members, at: instant) != nil
    let owning = members.filter { transaction in
      guard !revokedByAnyCancellation else { return false }
      guard let cancelled = cancellation(of: transaction) else { return true }
      return cancelled > instant
    }
    let key = EntitlementKey.product(product)
    if kind == .nonRenewing, !owning.isEmpty, !flaws.contains(.nonRenewingOwnedForever) {
      return evaluateNonRenewing(
        product, owning, duration: catalog?[product]?.duration, at: instant)
    }
    // Prefer the customer's own purchase over a family-shared one as the evidence.
    if let chosen = owning.min(by: { Self.ownershipRank($0) < Self.ownershipRank($1) }) {
      var entitlement = OldEntitlement(
        key: key, status: .active, kind: kind,
        reason: "owned (purchased \(Self.text(chosen.purchaseDate)))")
      fill(&entitlement, from: chosen)
      return entitlement
    }
    let latest = members.max {
      ($0.cancellationDate ?? .distantPast) < ($1.cancellationDate ?? .distantPast)
    }
    var entitlement = OldEntitlement(key: key, status: .revoked, kind: kind, reason: "")
    if let latest {
      fill(&entitlement, from: latest)
      entitlement.revocationDate = latest.cancellationDate
      entitlement.reason = "refunded on \(Self.text(latest.cancellationDate))"
    }
    return entitlement
  }

  /// A non-renewing subscription with purchases not revoked: active while one of them runs
  /// (the latest end is its expiry), expired once all have run out, unknown without a duration.
  private func evaluateNonRenewing(
    _ product: String, _ owning: [LegacyTransaction], duration: CalendarDuration?,
    at instant: Timestamp
  ) -> OldEntitlement {
    let key = EntitlementKey.product(product)
    guard let duration else {
      let chosen = owning.min { Self.ownershipRank($0) < Self.ownershipRank($1) }
      var entitlement = OldEntitlement(
        key: key, status: .active, kind: .nonRenewing,
        reason: "non-renewing, purchased \(Self.text(chosen?.purchaseDate)); its duration is not "
          + "in the catalogue")
      entitlement.isDurationUnknown = true
      if let chosen { fill(&entitlement, from: chosen) }
      return entitlement
    }
    let periods = owning.compactMap { transaction in
      transaction.purchaseDate.map { (transaction: transaction, end: duration.end(from: $0)) }
    }
    let running = periods.filter { $0.end > instant }
    // The purchase that runs longest decides the expiry.
    let chosen = (running.isEmpty ? periods : running).max { $0.end < $1.end }
    var entitlement = OldEntitlement(
      key: key, status: running.isEmpty ? .expired : .active, kind: .nonRenewing,
      reason: running.isEmpty
        ? "non-renewing, ran out on \(Self.text(chosen?.end))"
        : "non-renewing, runs until \(Self.text(chosen?.end))")
    if let chosen {
      fill(&entitlement, from: chosen.transaction)
      entitlement.expiresDate = chosen.end
    }
    return entitlement
  }

  private func fill(_ entitlement: inout OldEntitlement, from transaction: LegacyTransaction) {
    entitlement.productId = transaction.productId
    entitlement.ownership = transaction.ownershipType
    entitlement.originalTransactionId = transaction.originalTransactionId
    entitlement.transactionId = transaction.transactionId
  }

  private static func ownershipRank(_ transaction: LegacyTransaction) -> Int {
    transaction.ownershipType == .familyShared ? 1 : 0
  }

  // MARK: - Helpers

  private static func byExpiryThenPurchase(_ lhs: LegacyTransaction, _ rhs: LegacyTransaction)
    -> Bool
  {
    let left = (lhs.expiresDate ?? .distantPast, lhs.purchaseDate ?? .distantPast)
    let right = (rhs.expiresDate ?? .distantPast, rhs.purchaseDate ?? .distantPast)
    return left < right
  }

  private static func text(_ instant: Timestamp?) -> String {
    instant?.iso8601 ?? "an unknown date"
  }
}

/// Finds the subscription group of each auto-renewable transaction. Only
/// `latest_receipt_info` entries carry `subscription_group_identifier`, so `in_app` entries
/// borrow it from another entry of the same original transaction or product, or from the
/// catalogue; failing all of those, the original transaction stands in for the group.
private struct GroupResolver {
  var byOriginal: [String: String] = [:]
  var byProduct: [String: String] = [:]
  let catalog: ProductCatalog?

  init(transactions: [LegacyTransaction], catalog: ProductCatalog?) {
    self.catalog = catalog
    for transaction in transactions {
      guard let group = transaction.subscriptionGroupIdentifier, !group.isEmpty else { continue }
      if let original = transaction.originalTransactionId { byOriginal[original] = group }
      if let product = transaction.productId { byProduct[product] = group }
    }
  }

  func key(for transaction: LegacyTransaction) -> EntitlementKey {
    if let group = transaction.subscriptionGroupIdentifier, !group.isEmpty {
      return .subscriptionGroup(group)
    }
    if let original = transaction.originalTransactionId, let group = byOriginal[original] {
      return .subscriptionGroup(group)
    }
    if let product = transaction.productId {
      if let group = byProduct[product] ?? catalog?[product]?.subscriptionGroupIdentifier {
        return .subscriptionGroup(group)
      }
    }
    return .subscriptionGroup(
      "original:" + (transaction.originalTransactionId ?? transaction.productId ?? "unknown"))
  }
}
