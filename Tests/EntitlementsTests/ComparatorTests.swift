import AppStoreServerAPI
import Chronology
import Entitlements
import LegacyReceipts
import Testing

let day = Timestamp.millisecondsPerDay
let now = Timestamp(millisecondsSince1970: 1_761_955_200_000)
func at(_ offset: Int64) -> Timestamp { now.adding(milliseconds: offset) }

/// A legacy response with one monthly subscription transaction.
func legacyResponse(
  product: String = "pro.monthly", purchase: Timestamp, expires: Timestamp,
  original: String = "100", id: String = "101",
  cancelled: Timestamp? = nil, captured: Timestamp, renewal: [String: String] = [:],
  group: String = "G"
) throws -> AccountInput.Response {
  var fields = [
    "\"transaction_id\":\"\(id)\"", "\"original_transaction_id\":\"\(original)\"",
    "\"product_id\":\"\(product)\"",
    "\"subscription_group_identifier\":\"\(group)\"",
    "\"purchase_date_ms\":\"\(purchase.millisecondsSince1970)\"",
    "\"expires_date_ms\":\"\(expires.millisecondsSince1970)\"",
  ]
  if let cancelled {
    fields.append("\"cancellation_date_ms\":\"\(cancelled.millisecondsSince1970)\"")
  }
  let renewalText =
    renewal.isEmpty
    ? ""
    : ",\"pending_renewal_info\":[{\"original_transaction_id\":\"\(original)\","
      + renewal.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(separator: ",") + "}]"
  let text =
    "{\"status\":0,\"receipt\":{\"request_date_ms\":\"\(captured.millisecondsSince1970)\",\"in_app\":[]},\"latest_receipt_info\":[{\(fields.joined(separator: ","))}]\(renewalText)}"
  let response = try Array(text.utf8).withUnsafeBytes { try VerifyReceiptDecoder.decode($0) }
    .response
  return AccountInput.Response(version: 1, capturedAt: captured, response: response)
}

func transaction(
  product: String = "pro.monthly", purchase: Timestamp, expires: Timestamp?,
  original: String = "100", id: String = "101",
  type: TransactionType = .autoRenewableSubscription, revoked: (Timestamp, RevocationType)? = nil,
  family: Bool = false, group: String = "G"
) -> JWSTransaction {
  var transaction = JWSTransaction()
  transaction.transactionId = id
  transaction.originalTransactionId = original
  transaction.productId = product
  transaction.subscriptionGroupIdentifier = type == .autoRenewableSubscription ? group : nil
  transaction.purchaseDate = purchase
  transaction.expiresDate = expires
  transaction.type = type
  transaction.inAppOwnershipType = family ? .familyShared : .purchased
  transaction.revocationDate = revoked?.0
  transaction.revocationType = revoked?.1
  transaction.appTransactionId = "7001"
  return transaction
}

func customer(
  _ transactions: [JWSTransaction], statuses: [(SubscriptionStatus, JWSTransaction)],
  environment: String = "Production", others: [String] = []
)
  -> AccountInput.Customer
{
  AccountInput.Customer(
    key: "7001", environment: environment, otherAccounts: others,
    data: AppStoreCustomerData(
      transactions: transactions,
      statuses: statuses.map {
        StatusEntry(
          group: $0.1.subscriptionGroupIdentifier ?? "G", status: $0.0,
          originalTransactionId: $0.1.originalTransactionId ?? "",
          transaction: $0.1, renewal: nil)
      }))
}

func seeds(_ ids: [String], outcome: AccountEvidence.SeedId.Outcome = .found) -> [AccountEvidence
  .SeedId]
{
  ids.map {
    AccountEvidence.SeedId(
      id: $0, source: "latest_receipt_info", outcome: outcome, environment: "Production",
      lastError: nil)
  }
}

func response(status: Int64) -> AccountEvidence.LegacyRecord {
  AccountEvidence.LegacyRecord(
    version: 1, kind: "response", source: "x.ndjson:1", status: status, environment: "Production",
    capturedAt: nil, isEvaluated: false)
}

@Suite("AccountComparator")
struct ComparatorTests {
  let comparator = AccountComparator(asOf: now, catalog: nil)

  @Test("a snapshot from before the renewal: stale_renewed, caused by freshness")
  func staleRenewed() throws {
    let old = try legacyResponse(
      purchase: at(-40 * day), expires: at(-10 * day), captured: at(-35 * day))
    let first = transaction(purchase: at(-40 * day), expires: at(-10 * day))
    let renewal = transaction(purchase: at(-10 * day), expires: at(20 * day), id: "102")
    let input = AccountInput(
      accountId: "a", responses: [old], records: [response(status: 0)], seeds: seeds(["100"]),
      customers: [customer([first, renewal], statuses: [(.active, renewal)])], table: nil)
    let result = comparator.compare(input)
    #expect(result.category == .staleRenewed)
    #expect(result.cause == .freshness)
    #expect(result.explanation.hasPrefix("pro.monthly is active until 2025-11-21"))
    #expect(result.keys.first?.old?.status == .expired)
    #expect(result.keys.first?.newAtCapture?.status == .active)
  }

  @Test("an account with two Apple Accounts judges each key at its own snapshot's instant")
  func twoSnapshots() throws {
    // Apple Account 1: captured 30 days ago, refunded 20 days ago (after its snapshot).
    let refunded = transaction(
      purchase: at(-40 * day), expires: at(20 * day), revoked: (at(-20 * day), .refundFull))
    let older = try legacyResponse(
      purchase: at(-40 * day), expires: at(20 * day), captured: at(-30 * day))
    // Apple Account 2: another group, captured 3 days ago, agreeing.
    let other = transaction(
      product: "other.monthly", purchase: at(-5 * day), expires: at(25 * day), original: "200",
      id: "201", group: "H")
    let newer = try legacyResponse(
      product: "other.monthly", purchase: at(-5 * day), expires: at(25 * day), original: "200",
      id: "201", captured: at(-3 * day), group: "H")
    var second = customer([other], statuses: [(.active, other)])
    second.key = "7002"
    let input = AccountInput(
      accountId: "a", responses: [older, newer], records: [response(status: 0)],
      seeds: seeds(["100", "200"]),
      customers: [customer([refunded], statuses: [(.revoked, refunded)]), second], table: nil)
    let result = comparator.compare(input)
    #expect(result.category == .refundMissed)
    let refund = try #require(result.keys.first { $0.key == .subscriptionGroup("G") })
    // At its own snapshot (30 days ago) the App Store still granted it: the refund came after.
    // Judged at the newer snapshot's instant, this read as a logic difference.
    #expect(refund.cause == .freshness, "\(refund.explanation)")
    #expect(refund.newAtCapture?.status == .active)
    #expect(refund.explanation.contains("snapshot of \(at(-30 * day).iso8601.prefix(10))"))
    let agreeing = try #require(result.keys.first { $0.key == .subscriptionGroup("H") })
    #expect(agreeing.category == .match)
    print(
      "DEBUG",
      result.keys.map {
        "\($0.key) \($0.category) \(String(describing: $0.cause)) old@\(String(describing: $0.oldAtCapture?.status)) new@\(String(describing: $0.newAtCapture?.status)) \($0.explanation)"
      })
  }

  @Test("a shared Apple Account or a test account keeps its label, and its keys are compared")
  func accountLevelKeys() throws {
    let bought = transaction(
      purchase: at(-5 * day), expires: at(25 * day), revoked: (at(-1 * day), .refundFull))
    let stale = try legacyResponse(
      purchase: at(-5 * day), expires: at(25 * day), captured: at(-3 * day))
    for (others, environment, category) in [
      (["b"], "Production", DiscrepancyCategory.sharedAppleAccount),
      ([], "Sandbox", .sandboxOnly),
    ] {
      let input = AccountInput(
        accountId: "a", responses: [stale], records: [response(status: 0)], seeds: seeds(["100"]),
        customers: [
          customer(
            [bought], statuses: [(.revoked, bought)], environment: environment, others: others)
        ],
        table: nil)
      let result = comparator.compare(input)
      #expect(result.category == category)
      #expect(result.keys.map(\.category) == [.refundMissed])
      #expect(result.secondaryFindings.contains { $0.contains("refund_missed") })
    }
  }

  @Test("a refund after the snapshot: refund_missed; a refund the old data shows: match")
  func refunds() throws {
    let bought = transaction(
      purchase: at(-5 * day), expires: at(25 * day), revoked: (at(-1 * day), .refundFull))
    let stale = try legacyResponse(
      purchase: at(-5 * day), expires: at(25 * day), captured: at(-3 * day))
    var input = AccountInput(
      accountId: "a", responses: [stale], records: [response(status: 0)], seeds: seeds(["100"]),
      customers: [customer([bought], statuses: [(.revoked, bought)])], table: nil)
    #expect(comparator.compare(input).category == .refundMissed)
    input.responses = [
      try legacyResponse(
        purchase: at(-5 * day), expires: at(25 * day), cancelled: at(-1 * day),
        captured: at(-12 * 3_600_000))
    ]
    #expect(comparator.compare(input).category == .match)
    var prorated = bought
    prorated.revocationType = .refundProrated
    input.responses = [stale]
    input.customers = [customer([prorated], statuses: [(.revoked, prorated)])]
    #expect(comparator.compare(input).category == .proratedRefund)
    var family = bought
    family.revocationType = .familyRevoke
    input.customers = [customer([family], statuses: [(.revoked, family)])]
    #expect(comparator.compare(input).category == .revokedFamily)
    // Without revocationType, a family-shared transaction revoked for reason 0 is a family
    // revoke (Apple's revocationReason documentation); a purchased one stays a refund.
    var untypedFamily = bought
    untypedFamily.revocationType = nil
    untypedFamily.revocationReason = .other
    untypedFamily.inAppOwnershipType = .familyShared
    input.customers = [customer([untypedFamily], statuses: [(.revoked, untypedFamily)])]
    #expect(comparator.compare(input).category == .revokedFamily)
    var untypedOwn = untypedFamily
    untypedOwn.inAppOwnershipType = .purchased
    input.customers = [customer([untypedOwn], statuses: [(.revoked, untypedOwn)])]
    #expect(comparator.compare(input).category == .refundMissed)
    var untypedAppIssue = untypedFamily
    untypedAppIssue.revocationReason = .appIssue
    input.customers = [customer([untypedAppIssue], statuses: [(.revoked, untypedAppIssue)])]
    #expect(comparator.compare(input).category == .refundMissed)
  }

  @Test("account-level checks come first, in their order")
  func accountLevel() throws {
    let active = transaction(purchase: at(-5 * day), expires: at(25 * day))
    let legacy = try legacyResponse(
      purchase: at(-5 * day), expires: at(25 * day), captured: at(-1 * day))
    let base = AccountInput(
      accountId: "a", responses: [legacy], records: [response(status: 0)], seeds: seeds(["100"]),
      customers: [customer([active], statuses: [(.active, active)])], table: nil)
    #expect(comparator.compare(base).category == .match)

    var errors = base
    errors.responses = []
    errors.records = [response(status: 21010)]
    #expect(comparator.compare(errors).category == .legacyErrorStatus)
    #expect(comparator.compare(errors).explanation.contains("21010"))

    var noIds = base
    noIds.seeds = []
    #expect(comparator.compare(noIds).category == .noTransactionId)

    var failed = base
    failed.seeds = [
      AccountEvidence.SeedId(
        id: "100", source: "in_app", outcome: .failed, environment: nil,
        lastError: "5000000 after 3 attempts")
    ]
    #expect(comparator.compare(failed).category == .unresolved)
    #expect(comparator.compare(failed).explanation.contains("5000000 after 3 attempts"))

    // Partial App Store data is never compared: an interrupted backfill is unresolved.
    var incomplete = base
    incomplete.customers[0].isComplete = false
    #expect(comparator.compare(incomplete).category == .unresolved)
    #expect(comparator.compare(incomplete).explanation.contains("incomplete"))

    var unlinked = base
    unlinked.customers = []
    #expect(comparator.compare(unlinked).category == .unresolved)
    #expect(comparator.compare(unlinked).explanation.contains("not linked"))

    var unknown = base
    unknown.seeds = seeds(["100"], outcome: .unknown)
    unknown.customers = []
    #expect(comparator.compare(unknown).category == .unknownToAppStore)

    var sandbox = base
    sandbox.customers = [customer([active], statuses: [(.active, active)], environment: "Sandbox")]
    #expect(comparator.compare(sandbox).category == .sandboxOnly)

    var shared = base
    shared.customers = [customer([active], statuses: [(.active, active)], others: ["b"])]
    #expect(comparator.compare(shared).category == .sharedAppleAccount)
    #expect(comparator.compare(shared).explanation == "the Apple Account 7001 also belongs to b")

    var idsOnly = base
    idsOnly.responses = []
    idsOnly.records = [
      AccountEvidence.LegacyRecord(
        version: 1, kind: "seed", source: "s.csv:2", status: nil, environment: nil, capturedAt: nil,
        isEvaluated: false)
    ]
    #expect(comparator.compare(idsOnly).category == .idsOnly)
  }

  @Test("grace, billing retry, upgrades, expiry drift and purchases missing from the receipt")
  func otherKeyCategories() throws {
    let legacy = try legacyResponse(
      purchase: at(-40 * day), expires: at(-10 * day), captured: at(-35 * day))
    let lapsed = transaction(purchase: at(-40 * day), expires: at(-10 * day))
    var input = AccountInput(
      accountId: "a", responses: [legacy], records: [response(status: 0)], seeds: seeds(["100"]),
      customers: [customer([lapsed], statuses: [(.billingGracePeriod, lapsed)])], table: nil)
    #expect(comparator.compare(input).category == .graceMissed)

    let current = try legacyResponse(
      purchase: at(-5 * day), expires: at(25 * day), captured: at(-4 * day))
    let running = transaction(purchase: at(-5 * day), expires: at(25 * day))
    input.responses = [current]
    input.customers = [customer([running], statuses: [(.billingRetry, running)])]
    #expect(comparator.compare(input).category == .billingRetryAsActive)

    let upgraded = transaction(
      product: "plus.monthly", purchase: at(-2 * day), expires: at(28 * day), id: "102")
    input.customers = [customer([running, upgraded], statuses: [(.active, upgraded)])]
    #expect(comparator.compare(input).category == .upgradeMisread)

    let later = transaction(purchase: at(-5 * day), expires: at(40 * day))
    input.customers = [customer([later], statuses: [(.active, later)])]
    #expect(comparator.compare(input).category == .expiryDrift)

    let lifetime = transaction(
      product: "lifetime", purchase: at(-1 * day), expires: nil, original: "200", id: "200",
      type: .nonConsumable)
    input.customers = [customer([running, lifetime], statuses: [(.active, running)])]
    let missing = comparator.compare(input)
    #expect(missing.category == .missingInReceipt)
    #expect(missing.keys.first?.key == .product("lifetime"))
    let shared = transaction(
      product: "lifetime", purchase: at(-1 * day), expires: nil, original: "200", id: "200",
      type: .nonConsumable, family: true)
    input.customers = [customer([running, shared], statuses: [(.active, running)])]
    #expect(comparator.compare(input).category == .familySharedOnlyInAPI)
  }

  @Test("the team's table gets its own category, and the legacy bug that reproduces it is named")
  func table() throws {
    let legacy = try legacyResponse(
      purchase: at(-40 * day), expires: at(-10 * day), captured: at(-9 * day),
      renewal: ["is_in_billing_retry_period": "1", "auto_renew_status": "1"])
    let lapsed = transaction(purchase: at(-40 * day), expires: at(-10 * day))
    let input = AccountInput(
      accountId: "a", responses: [legacy], records: [response(status: 0)], seeds: seeds(["100"]),
      customers: [customer([lapsed], statuses: [(.billingRetry, lapsed)])],
      table: [TableRow(productId: "pro.monthly", status: .active, expiresAt: at(-10 * day))])
    let result = AccountComparator(
      asOf: now,
      catalog: ProductCatalog(products: [
        "pro.monthly": .init(kind: .autoRenewable, subscriptionGroupIdentifier: "G")
      ])
    )
    .compare(input)
    #expect(result.category == .match)
    #expect(result.tableCategory == .billingRetryAsActive)
    // Reading a valid receipt as "subscribed" grants the same row: both bugs are named.
    #expect(result.suspectedFlaws == [.autoRenewMeansEntitled, .status0MeansSubscribed])
    #expect(result.keys.first?.table?.status == .active)
  }

  @Test("responses of two Apple Accounts are evaluated separately and merged")
  func twoAppleAccounts() throws {
    let former = try legacyResponse(
      purchase: at(-400 * day), expires: at(-370 * day), original: "100", id: "101",
      captured: at(-380 * day))
    let current = try legacyResponse(
      product: "plus.monthly", purchase: at(-5 * day), expires: at(25 * day), original: "300",
      id: "301", captured: at(-2 * day))
    let old = transaction(purchase: at(-400 * day), expires: at(-370 * day))
    let new = transaction(
      product: "plus.monthly", purchase: at(-5 * day), expires: at(25 * day), original: "300",
      id: "301")
    let input = AccountInput(
      accountId: "a", responses: [former, current], records: [response(status: 0)],
      seeds: seeds(["100", "300"]),
      customers: [
        customer([old], statuses: [(.expired, old)]), customer([new], statuses: [(.active, new)]),
      ], table: nil)
    let result = comparator.compare(input)
    #expect(result.category == .match)
    #expect(result.keys.first?.old?.productId == "plus.monthly")
    #expect(result.evidence.capturedAt == at(-2 * day))
  }

  @Test("the result does not depend on the order of the inputs")
  func orderIndependence() throws {
    let a = transaction(purchase: at(-5 * day), expires: at(25 * day), original: "100", id: "101")
    let b = transaction(
      product: "plus.monthly", purchase: at(-5 * day), expires: at(25 * day), original: "200",
      id: "201")
    let legacy = try legacyResponse(
      purchase: at(-5 * day), expires: at(25 * day), captured: at(-1 * day))
    let forward = AccountInput(
      accountId: "a", responses: [legacy], records: [response(status: 0)], seeds: seeds(["100"]),
      customers: [customer([a, b], statuses: [(.active, a), (.active, b)])], table: nil)
    var backward = forward
    backward.customers = [customer([b, a], statuses: [(.active, b), (.active, a)])]
    #expect(comparator.compare(forward) == comparator.compare(backward))
  }

  @Test("stored statuses are true as of their signing: run out, still due, or newer than N")
  func timeCorrectNewSide() throws {
    let legacy = try legacyResponse(
      purchase: at(-20 * day), expires: at(10 * day), captured: at(-19 * day))
    var running = transaction(purchase: at(-20 * day), expires: at(-2 * day))
    running.signedDate = at(-5 * day)
    var input = AccountInput(
      accountId: "a", responses: [legacy], records: [response(status: 0)], seeds: seeds(["100"]),
      customers: [customer([running], statuses: [(.active, running)])], table: nil)
    // Active, fetched five days ago, expired two days ago: says nothing about now.
    let stale = comparator.compare(input)
    #expect(stale.category == .staleAppStoreData)
    #expect(stale.explanation.contains("was active until \(at(-2 * day).iso8601.prefix(10))"))
    #expect(stale.explanation.contains("said on \(at(-5 * day).iso8601.prefix(10))"))

    // A grace period that has ended.
    var lapsed = transaction(purchase: at(-40 * day), expires: at(-10 * day))
    lapsed.signedDate = at(-9 * day)
    var entry = StatusEntry(
      group: "G", status: .billingGracePeriod, originalTransactionId: "100", transaction: lapsed,
      renewal: nil)
    var renewal = JWSRenewalInfo()
    renewal.gracePeriodExpiresDate = at(-1 * day)
    renewal.signedDate = at(-9 * day)
    entry.renewal = renewal
    input.customers = [
      AccountInput.Customer(
        key: "7001", environment: "Production", otherAccounts: [],
        data: AppStoreCustomerData(transactions: [lapsed], statuses: [entry]))
    ]
    #expect(comparator.compare(input).category == .staleAppStoreData)

    // Not run out, but a refresh is still due: stale too, and the table with it.
    var current = transaction(purchase: at(-20 * day), expires: at(10 * day))
    current.signedDate = at(-1 * day)
    input.customers = [customer([current], statuses: [(.active, current)])]
    #expect(comparator.compare(input).category == .match)
    input.customers[0].pendingRefresh = "a DID_RENEW notification of 2025-10-31 says it changed"
    input.table = [TableRow(productId: "pro.monthly", status: .active, expiresAt: at(10 * day))]
    let pending = comparator.compare(input)
    #expect(pending.category == .staleAppStoreData)
    #expect(pending.tableCategory == .staleAppStoreData)
    #expect(pending.explanation.contains("DID_RENEW"))

    // Compared as of an instant before the data: reconstructed from the history, never stale.
    let earlier = AccountComparator(asOf: at(-30 * day), catalog: nil)
    var later = transaction(purchase: at(-40 * day), expires: at(-10 * day))
    later.signedDate = now
    input.customers = [customer([later], statuses: [(.expired, later)])]
    input.customers[0].pendingRefresh = nil
    input.table = nil
    let reconstructed = earlier.compare(input)
    #expect(reconstructed.category != .staleAppStoreData)
    #expect(reconstructed.keys.first?.new?.status == .active)
  }

  @Test(
    "a non-renewing subscription lasts the catalogue's duration; without one it needs attention")
  func nonRenewing() throws {
    let catalogued = try ProductCatalog(
      csv: "product_id,type,subscription_group_identifier,duration\npass,non_renewing,,P90D\n")
    let legacyText =
      "{\"status\":0,\"receipt\":{\"request_date_ms\":\"\(at(-100 * day).millisecondsSince1970)\",\"in_app\":[{\"transaction_id\":\"300\",\"original_transaction_id\":\"300\",\"product_id\":\"pass\",\"purchase_date_ms\":\"\(at(-120 * day).millisecondsSince1970)\"}]}}"
    let decoded = try Array(legacyText.utf8).withUnsafeBytes {
      try VerifyReceiptDecoder.decode($0)
    }.response
    let legacy = AccountInput.Response(version: 1, capturedAt: at(-100 * day), response: decoded)
    let pass = transaction(
      product: "pass", purchase: at(-120 * day), expires: nil, original: "300", id: "300",
      type: .nonRenewingSubscription)
    let input = AccountInput(
      accountId: "a", responses: [legacy], records: [response(status: 0)], seeds: seeds(["300"]),
      customers: [customer([pass], statuses: [])], table: nil)
    // 120 days ago plus 90: over a month ago, on both sides.
    let known = AccountComparator(asOf: now, catalog: catalogued).compare(input)
    #expect(known.category == .match)
    #expect(known.keys.first?.old?.status == .expired)
    #expect(known.keys.first?.new?.status == .expired)
    #expect(known.keys.first?.new?.expiresDate == at(-30 * day))
    // Within its 90 days, both grant it until the same end.
    let during = AccountComparator(asOf: at(-60 * day), catalog: catalogued).compare(input)
    #expect(during.keys.first?.new?.status == .active)
    #expect(during.keys.first?.old?.expiresDate == at(-30 * day))
    // Without a duration (or a catalogue): never owned forever.
    let unknown = AccountComparator(asOf: now, catalog: nil).compare(input)
    #expect(unknown.category == .durationUnknown)
    #expect(unknown.category.impact == .needsAttention)
    #expect(unknown.explanation.contains("add its duration to the catalogue"))
    // Nothing changed after the snapshot and neither logic erred: the catalogue lacks it.
    #expect(unknown.cause == .catalogue)
    #expect(!unknown.explanation.contains("after the snapshot"))
  }

  @Test("the catalogue reads durations and refuses them where they make no sense")
  func catalogueDurations() throws {
    let catalogue = try ProductCatalog(
      csv: "product_id,type,subscription_group_identifier,duration\n"
        + "pass,non_renewing,,P1M\nmonthly,auto_renewable,G,\nold,non_consumable\n")
    #expect(catalogue["pass"]?.duration == CalendarDuration(months: 1))
    #expect(catalogue["monthly"]?.duration == nil)
    #expect(throws: ProductCatalogError.self) {
      try ProductCatalog(csv: "h\npass,non_renewing,,90 days\n")
    }
    #expect(throws: ProductCatalogError.self) {
      try ProductCatalog(csv: "h\nmonthly,auto_renewable,G,P1M\n")
    }
  }
}
