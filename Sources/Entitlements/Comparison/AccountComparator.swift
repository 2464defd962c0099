import Chronology
import LegacyReceipts

/// Classifies one account by the rules of `Documentation/Discrepancies.md`: account-level checks
/// first, then every entitlement key compared between the old logic on the stored responses and
/// the new logic on the App Store's data, both at the comparison instant, with the capture
/// instant used to tell logic from freshness. Pure.
public struct AccountComparator: Sendable {
  /// The comparison instant.
  public var asOf: Timestamp
  /// The team's product catalogue, when given.
  public var catalog: ProductCatalog?
  /// The key rules.
  public var classifier: KeyClassifier
  /// How long after the instant its data holds through a customer's data may still be read
  /// (`--max-data-age`); `nil` for no bound.
  public var maxDataAgeMilliseconds: Int64?

  /// Creates a comparator.
  ///
  /// - Parameters:
  ///   - asOf: the comparison instant.
  ///   - catalog: the product catalogue.
  ///   - expiryTolerance: how far apart expiries may be and still agree.
  ///   - maxDataAgeMilliseconds: see ``maxDataAgeMilliseconds``.
  public init(
    asOf: Timestamp, catalog: ProductCatalog?,
    expiryTolerance: Int64 = Timestamp.millisecondsPerDay,
    maxDataAgeMilliseconds: Int64? = nil
  ) {
    self.asOf = asOf
    self.catalog = catalog
    self.classifier = KeyClassifier(expiryTolerance: expiryTolerance)
    self.maxDataAgeMilliseconds = maxDataAgeMilliseconds
  }

  /// Compares one account.
  ///
  /// - Parameter input: what is known about the account.
  /// - Returns: its classification, explanation and evidence.
  public func compare(_ input: AccountInput) -> AccountComparison {
    // The old side reads only what the team held at the comparison instant: responses captured
    // after it are set aside (and said so), never evaluated as of an instant before they existed.
    let heldResponses = input.responses.filter { !isAfterComparison($0.capturedAt) }
    let clusters = latestPerAppleAccount(heldResponses)
    let captureInstant = clusters.compactMap(\.capturedAt).max()
    var evidence = AccountEvidence(
      capturedAt: captureInstant, legacyRecords: input.records, seedIds: input.seeds, customers: [])
    evidence.customers = input.customers.map {
      AccountEvidence.Customer(
        key: $0.key, environment: $0.environment, otherAccounts: $0.otherAccounts,
        originalApplicationVersion: $0.originalApplicationVersion)
    }
    evidence.orderIds = input.orders
    evidence.legacyOriginalApplicationVersions = PaidToFreeEvidence.legacyVersions(of: clusters)
    let evaluatedVersions = Set(clusters.map(\.version))
    for index in evidence.legacyRecords.indices {
      let record = evidence.legacyRecords[index]
      if evaluatedVersions.contains(record.version) {
        evidence.legacyRecords[index].isEvaluated = true
      }
      if record.kind == "response", isAfterComparison(record.capturedAt) {
        evidence.legacyRecords[index].isCapturedAfterInstant = true
      }
    }
    var secondary: [String] = []
    let setAside = evidence.legacyRecords.count(where: \.isCapturedAfterInstant)
    if setAside > 0 {
      secondary.append(
        "\(setAside) stored response(s) captured after \(ExplanationWriter.day(asOf)) set aside: "
          + "the team did not hold them at the comparison instant")
    }
    let errorRecords = input.records.filter {
      $0.kind == "response" && !ReceiptStatus(rawValue: $0.status ?? 0).carriesTransactions
        && !isAfterComparison($0.capturedAt)
    }
    if !errorRecords.isEmpty && !heldResponses.isEmpty {
      secondary.append(
        "\(errorRecords.count) stored response(s) with an error status beside the usable ones")
    }
    let unverified = input.seeds.filter(\.isUnverified)
    if !unverified.isEmpty {
      secondary.append(
        "\(unverified.count) id(s) come from raw receipts whose signature was not verified")
    }
    if let setAside = SetAsideFinding.sentence(records: input.records, evaluated: clusters) {
      secondary.append(setAside)
    }
    if let versions = PaidToFreeEvidence.finding(
      legacy: evidence.legacyOriginalApplicationVersions, customers: input.customers)
    {
      secondary.append(versions)
    }

    let newNow = mergedNew(input.customers)
    let table = input.table.map(tableViews)
    // The old logic's verdict now: read by the key-level checks and by the flaw search, and
    // computed at most once for both.
    lazy var oldNow = mergedOld(clusters, at: { _ in asOf })
    func finish(
      _ category: DiscrepancyCategory, _ explanation: String, keys: [KeyComparison] = [],
      cause: DifferenceCause? = nil
    )
      -> AccountComparison
    {
      var tableCategory: DiscrepancyCategory?
      var keyComparisons = keys
      var tableOnlyKeys: [KeyComparison] = []
      if let table {
        if input.customers.isEmpty || category == .staleAppStoreData {
          tableCategory = category
        } else {
          let allKeys = Set(table.keys).union(newNow.keys)
          tableCategory =
            allKeys.map { classifier.classify(old: table[$0], new: newNow[$0]) }.min() ?? .match
          for index in keyComparisons.indices {
            let key = keyComparisons[index].key
            keyComparisons[index].table = table[key]
            keyComparisons[index].tableCategory = classifier.classify(
              old: table[key], new: newNow[key])
          }
          tableOnlyKeys = wrongTableOnlyKeys(
            table: table, appStore: newNow, known: Set(keyComparisons.map(\.key)))
        }
      }
      return AccountComparison(
        accountId: input.accountId, category: category, explanation: explanation, cause: cause,
        keys: keyComparisons,
        secondaryFindings: secondary, tableCategory: tableCategory,
        suspectedFlaws: table.map {
          suspectedFlaws(table: $0, clusters: clusters, reference: oldNow)
        } ?? [],
        evidence: evidence, tableOnlyKeys: tableOnlyKeys)
    }

    // MARK: Account-level checks, in precedence order.
    if heldResponses.isEmpty && !errorRecords.isEmpty {
      let codes = Set(errorRecords.compactMap(\.status)).sorted().map {
        "\($0) (\(ReceiptStatus(rawValue: $0).meaning))"
      }
      return finish(
        .legacyErrorStatus,
        "every stored response has an error status: " + codes.joined(separator: ", "))
    }
    if input.seeds.isEmpty {
      // Order ids reach customers only through Look Up Order ID: one still unanswered is an
      // account the tool cannot see yet, and one the App Store does not know is unknown.
      let unanswered = input.orders.filter { $0.outcome == .failed || $0.outcome == .pending }
      if let first = unanswered.first {
        return finish(
          .unresolved,
          "\(unanswered.count) of \(input.orders.count) order id(s) could not be resolved: "
            + "\(first.orderId): \(first.lastError ?? "not looked up yet"); run the backfill again")
      }
      if !input.orders.isEmpty {
        return finish(
          .unknownToAppStore,
          "the order id(s) "
            + input.orders.map(\.orderId).joined(separator: ", ")
            + " are not orders of this app: Look Up Order ID answered status 1 (invalid)")
      }
      return finish(
        .noTransactionId,
        "the legacy data holds no transaction id to backfill from (an empty receipt)"
          + SetAsideFinding.unusableIds(in: input.records))
    }
    let failed = input.seeds.filter { $0.outcome == .failed || $0.outcome == .pending }
    if !failed.isEmpty {
      let reason = failed.first?.lastError ?? "not backfilled yet"
      return finish(
        .unresolved,
        "\(failed.count) of \(input.seeds.count) id(s) could not be resolved: \(reason)")
    }
    // Partial App Store data is never compared: an interrupted backfill says so.
    if let incomplete = input.customers.first(where: { !$0.isComplete }) {
      return finish(
        .unresolved,
        "the App Store data of customer \(incomplete.key) is incomplete (an interrupted "
          + "backfill); run the backfill again")
    }
    let resolved = input.seeds.filter { $0.outcome == .found }
    if input.customers.isEmpty && !resolved.isEmpty {
      return finish(
        .unresolved,
        "\(resolved.count) id(s) were found in the App Store but are not linked to this "
          + "account's customer (an interrupted backfill); run the backfill again")
    }
    if input.customers.isEmpty {
      // An unknown id's environment names where it was asked ("Production+Sandbox").
      let asked = Set(
        input.seeds.flatMap { ($0.environment ?? "").split(separator: "+").map(String.init) })
      let scope =
        asked == ["Production"]
        ? "in production (the only environment asked)"
        : asked == ["Sandbox"]
          ? "in sandbox (the only environment asked)" : "in production or sandbox"
      return finish(
        .unknownToAppStore,
        "none of the \(input.seeds.count) id(s) is known to the App Store, \(scope)")
    }
    let stale = staleness(of: input.customers)
    if !stale.isEmpty {
      return finish(
        .staleAppStoreData,
        "the App Store data no longer speaks for this comparison: "
          + stale.map(\.sentence).joined(separator: "; ")
          + "; the customer must be asked again (audit and migrate refresh it)")
    }
    // MARK: Key level.
    // Each key is judged at the capture instant of the response that speaks for it: an account
    // holding several Apple Accounts has one snapshot per Apple Account, and reading an older
    // snapshot at a newer one's instant would call a freshness difference a logic one.
    let (oldAtCapture, keyCaptureInstants) = capturedOld(clusters)
    var reconstructions: [Timestamp: [EntitlementKey: EntitlementView]] = [:]
    func newAtCapture(_ instant: Timestamp) -> [EntitlementKey: EntitlementView] {
      if let known = reconstructions[instant] { return known }
      let views = mergedReconstruction(input.customers, at: instant)
      reconstructions[instant] = views
      return views
    }
    var keys: [KeyComparison] = []
    for key in Set(oldNow.keys).union(newNow.keys).sorted() {
      let category = classifier.classify(old: oldNow[key], new: newNow[key])
      let keyInstant = keyCaptureInstants[key] ?? captureInstant
      let newThen = keyInstant.map { newAtCapture($0)[key] } ?? nil
      var cause: DifferenceCause?
      if category == .durationUnknown {
        // Not a difference that arose: the duration is missing from the catalogue at every
        // instant, so neither freshness nor logic explains it.
        cause = .catalogue
      } else if category != .match {
        if keyInstant == nil {
          cause = .undetermined
        } else {
          cause = classifier.agree(oldAtCapture[key], newThen) ? .freshness : .logic
        }
      }
      keys.append(
        KeyComparison(
          key: key, category: category, cause: cause, old: oldNow[key], new: newNow[key],
          oldAtCapture: oldAtCapture[key],
          newAtCapture: newThen,
          explanation: ExplanationWriter.explain(
            category, old: oldNow[key], new: newNow[key], cause: cause, capturedAt: keyInstant))
      )
    }
    keys.sort { ($0.category, $0.key) < ($1.category, $1.key) }
    // A test account or an Apple Account shared between accounts keeps its account-level
    // category, but its keys are still compared: a refund there must reach the key files, the
    // secondary findings and --fail-on, not vanish behind the account's label.
    let accountLevel: (DiscrepancyCategory, String)?
    if input.customers.allSatisfy({ $0.environment == "Sandbox" }) {
      accountLevel = (
        .sandboxOnly, "the App Store knows this account's customer only in sandbox: a test account"
      )
    } else if let shared = input.customers.first(where: { !$0.otherAccounts.isEmpty }) {
      accountLevel = (
        .sharedAppleAccount,
        "the Apple Account \(shared.key) also belongs to \(shared.otherAccounts.joined(separator: ", "))"
      )
    } else {
      accountLevel = nil
    }
    if let (category, explanation) = accountLevel {
      for key in keys where key.category != .match {
        secondary.append("\(key.key): \(key.category.rawValue): \(key.explanation)")
      }
      return finish(category, explanation, keys: keys)
    }
    if heldResponses.isEmpty {
      let granted = keys.compactMap(\.new).filter(\.isEntitled).compactMap(\.productId)
      let why =
        input.responses.isEmpty
        ? "only ids were stored"
        : "every stored response was captured after \(ExplanationWriter.day(asOf))"
      return finish(
        .idsOnly,
        "\(why), so the old logic cannot be evaluated; the App Store grants "
          + (granted.isEmpty ? "nothing" : granted.joined(separator: ", ")),
        keys: keys)
    }
    guard let primary = keys.first, primary.category != .match else {
      let labels = keys.filter {
        $0.old?.status != $0.new?.status && $0.old != nil && $0.new != nil
      }
      for key in labels {
        secondary.append(
          "\(key.key): old \(key.old?.status.rawValue ?? "none"), new \(key.new?.status.rawValue ?? "none") (neither grants access)"
        )
      }
      return finish(
        .match,
        keys.isEmpty ? "neither side grants anything" : "both sides agree on every entitlement",
        keys: keys)
    }
    for other in keys.dropFirst() where other.category != .match {
      secondary.append("\(other.key): \(other.category.rawValue): \(other.explanation)")
    }
    return finish(primary.category, primary.explanation, keys: keys, cause: primary.cause)
  }

  // MARK: - The old side

  /// Whether a capture instant lies after the comparison instant (an unknown one does not).
  func isAfterComparison(_ capturedAt: Timestamp?) -> Bool {
    capturedAt.map { $0 > asOf } ?? false
  }

  /// The latest usable response of each Apple Account: responses are grouped by the original
  /// transaction ids they share (a response without ids stands alone).
  func latestPerAppleAccount(_ responses: [AccountInput.Response]) -> [AccountInput.Response] {
    var parent = Array(responses.indices)
    func root(_ index: Int) -> Int {
      var node = index
      while parent[node] != node { node = parent[node] }
      return node
    }
    var owner: [String: Int] = [:]
    for (index, response) in responses.enumerated() {
      for id in response.response.originalTransactionIds {
        if let other = owner[id] { parent[root(index)] = root(other) } else { owner[id] = index }
      }
    }
    var latest: [Int: AccountInput.Response] = [:]
    for (index, response) in responses.enumerated() {
      let group = root(index)
      if let current = latest[group],
        (current.capturedAt ?? .distantPast, current.version) >= (
          response.capturedAt ?? .distantPast, response.version
        )
      {
        continue
      }
      latest[group] = response
    }
    return latest.keys.sorted().compactMap { latest[$0] }
  }

  /// The old logic's view of every key at the capture instant of each Apple Account's latest
  /// response, and for each key the instant of the response whose view won.
  private func capturedOld(_ clusters: [AccountInput.Response]) -> (
    views: [EntitlementKey: EntitlementView], instants: [EntitlementKey: Timestamp]
  ) {
    let logic = OldEntitlementLogic(catalog: catalog)
    var merged: [EntitlementKey: EntitlementView] = [:]
    var instants: [EntitlementKey: Timestamp] = [:]
    for cluster in clusters {
      guard let moment = cluster.capturedAt else { continue }
      for entitlement in logic.evaluate(cluster.response, at: moment) {
        let view = Self.view(of: entitlement)
        let better = NewEntitlementLogic.better(merged[view.key], view)
        if merged[view.key] == nil || better != merged[view.key] {
          instants[view.key] = moment
        }
        merged[view.key] = better
      }
    }
    return (merged, instants)
  }

  private func mergedOld(
    _ clusters: [AccountInput.Response], at instant: (AccountInput.Response) -> Timestamp?
  )
    -> [EntitlementKey: EntitlementView]
  {
    let logic = OldEntitlementLogic(catalog: catalog)
    var merged: [EntitlementKey: EntitlementView] = [:]
    for cluster in clusters {
      guard let moment = instant(cluster) else { continue }
      for entitlement in logic.evaluate(cluster.response, at: moment) {
        let view = Self.view(of: entitlement)
        merged[view.key] = NewEntitlementLogic.better(merged[view.key], view)
      }
    }
    return merged
  }

  /// An old-logic verdict as a view.
  static func view(of entitlement: OldEntitlement) -> EntitlementView {
    var view = EntitlementView(key: entitlement.key, status: entitlement.status)
    view.productId = entitlement.productId
    view.kind = entitlement.kind
    view.expiresDate = entitlement.expiresDate
    view.gracePeriodExpiresDate = entitlement.gracePeriodExpiresDate
    view.ownership = entitlement.ownership?.description
    view.autoRenewStatus = entitlement.autoRenewStatus
    view.expirationIntent = entitlement.expirationIntent?.rawValue
    view.revocationDate = entitlement.revocationDate
    view.originalTransactionId = entitlement.originalTransactionId
    view.transactionId = entitlement.transactionId
    view.reason = entitlement.reason
    view.isDurationUnknown = entitlement.isDurationUnknown
    return view
  }

  // MARK: - The new side

  /// Every reason a customer's stored data cannot be compared at ``asOf``.
  private func staleness(of customers: [AccountInput.Customer]) -> [StaleEvidence] {
    let logic = NewEntitlementLogic(catalog: catalog)
    return customers.flatMap { customer in
      var evidence = logic.staleness(of: customer.data, customerKey: customer.key, at: asOf)
      // Past the instant it holds through, a state holds only while it provably cannot have
      // changed; expired, billing retry, revoked and one-time ownership can all change, so
      // beyond the maximum data age nothing is read from it.
      if let maxAge = maxDataAgeMilliseconds,
        let vouched = customer.vouchedThrough ?? customer.data.statusesSignedAt,
        asOf.milliseconds(since: vouched) > maxAge
      {
        evidence.append(
          StaleEvidence(
            customerKey: customer.key, group: nil, productId: nil,
            signedDate: customer.data.statusesSignedAt,
            kind: .tooOld(vouchedThrough: vouched, maxAgeMilliseconds: maxAge)))
      }
      if let reason = customer.pendingRefresh {
        evidence.append(
          StaleEvidence(
            customerKey: customer.key, group: nil, productId: nil,
            signedDate: customer.data.statusesSignedAt, kind: .refreshPending(reason: reason)))
      }
      return evidence
    }
  }

  private func mergedNew(_ customers: [AccountInput.Customer]) -> [EntitlementKey: EntitlementView]
  {
    let logic = NewEntitlementLogic(catalog: catalog)
    var merged: [EntitlementKey: EntitlementView] = [:]
    for customer in customers {
      for (key, view) in logic.evaluate(customer.data, at: asOf) {
        merged[key] = NewEntitlementLogic.better(merged[key], view)
      }
    }
    return merged
  }

  private func mergedReconstruction(_ customers: [AccountInput.Customer], at instant: Timestamp)
    -> [EntitlementKey: EntitlementView]
  {
    let logic = NewEntitlementLogic(catalog: catalog)
    var merged: [EntitlementKey: EntitlementView] = [:]
    for customer in customers {
      for (key, view) in logic.reconstruct(customer.data.transactions, at: instant) {
        merged[key] = NewEntitlementLogic.better(merged[key], view)
      }
    }
    return merged
  }

  // MARK: - The team's table

  /// Table rows as views, keyed like the other sides: a catalogued subscription product by its
  /// group, anything else by product.
  func tableViews(_ rows: [TableRow]) -> [EntitlementKey: EntitlementView] {
    var views: [EntitlementKey: EntitlementView] = [:]
    for row in rows {
      let product = catalog?[row.productId]
      let key: EntitlementKey
      if let group = product?.subscriptionGroupIdentifier, product?.kind == .autoRenewable {
        key = .subscriptionGroup(group)
      } else {
        key = .product(row.productId)
      }
      var view = EntitlementView(key: key, status: row.status)
      view.productId = row.productId
      view.kind = product?.kind
      view.expiresDate = row.expiresAt
      view.reason = "the team's table says \(row.status.rawValue)"
      view.isDurationUnknown = product?.kind == .nonRenewing && product?.duration == nil
      views[key] = NewEntitlementLogic.better(views[key], view)
    }
    return views
  }

  /// The keys only the table holds that it gets wrong against the App Store, in key order (a
  /// dictionary's order changes from run to run; reports must not).
  private func wrongTableOnlyKeys(
    table: [EntitlementKey: EntitlementView], appStore: [EntitlementKey: EntitlementView],
    known: Set<EntitlementKey>
  ) -> [KeyComparison] {
    var keys: [KeyComparison] = []
    for (key, view) in table where !known.contains(key) {
      let category = classifier.classify(old: view, new: appStore[key])
      guard category != .match else { continue }
      keys.append(
        KeyComparison(
          key: key, category: .match, cause: nil, old: nil, new: appStore[key], table: view,
          tableCategory: category, explanation: "only the team's table holds it"))
    }
    return keys.sorted { $0.key.description < $1.key.description }
  }

  /// The legacy bugs that, applied alone to the same responses, reproduce every table row that
  /// the reference old logic does not.
  private func suspectedFlaws(
    table: [EntitlementKey: EntitlementView], clusters: [AccountInput.Response],
    reference: [EntitlementKey: EntitlementView]
  ) -> [LegacyLogicFlaw] {
    func same(_ lhs: EntitlementView?, _ rhs: EntitlementView?) -> Bool {
      (lhs?.isEntitled ?? false) == (rhs?.isEntitled ?? false) && lhs?.productId == rhs?.productId
    }
    let differing = Set(table.keys).union(reference.keys).filter { !same(table[$0], reference[$0]) }
    guard !differing.isEmpty else { return [] }
    let storedId = OldEntitlementLogic.storedOriginalTransactionId(in: clusters.map(\.response))
    return LegacyLogicFlaw.allCases.filter { flaw in
      let flawed = OldEntitlementLogic(flaws: [flaw], catalog: catalog)
      var views: [EntitlementKey: EntitlementView] = [:]
      for cluster in clusters {
        for entitlement in flawed.evaluate(
          cluster.response, at: asOf, storedOriginalTransactionId: storedId)
        {
          let view = Self.view(of: entitlement)
          views[view.key] = NewEntitlementLogic.better(views[view.key], view)
        }
      }
      return differing.allSatisfy { same(views[$0], table[$0]) }
    }
  }
}
