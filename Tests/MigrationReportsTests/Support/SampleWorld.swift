import Chronology
import Entitlements
import LegacyReceipts
import MigrationReports

/// A small fixed world of hand-made comparisons: every category, every cause, a team table
/// with suspected bugs, shared Apple Accounts naming each other, an unverified raw receipt,
/// unicode, and account ids chosen to break HTML, CSV, Markdown and terminals.
enum SampleWorld {
  // MARK: - Instants

  static func at(_ text: String) -> Timestamp { Timestamp(parsing: text)! }

  static let asOf = at("2024-06-15T12:00:00Z")
  static let captured = at("2024-05-20T08:30:00Z")

  // MARK: - Hostile and unusual ids

  static let scriptId = "<script>document.body.setAttribute('data-pwned','script')</script>"
  static let imageId = "<img src=x onerror=\"document.body.setAttribute('data-pwned','img')\">"
  static let formulaId = "=HYPERLINK(\"http://example.invalid\",\"x\"),\"quoted\"\nline two"
  static let escapeId = "\u{1B}[2Jwiped"
  static let unicodeId = "Zoë-東京-🙂"
  static let markdownId = "| **bold** [link](http://example.invalid) `tick`"

  /// Every account id in the world.
  static var accountIds: [String] { comparisons.map(\.accountId) }

  // MARK: - Runs

  static let salt = Array("golden-salt-0123456789abcdef".utf8)

  static let simulatedSummary = RunSummary(
    runId: "20240615T120000Z-7f3a", toolVersion: "0.1.0",
    startedAt: at("2024-06-15T12:00:00Z"), finishedAt: at("2024-06-15T12:03:25.500Z"),
    asOf: asOf,
    appStore: AppStoreSource(
      isSimulated: true, description: "simulated App Store (world seed 1, 28 accounts)",
      environment: "auto"),
    inputs: RunInputs(recordsRead: 31, recordsAccepted: 30, recordsQuarantined: 1, accounts: 28),
    stageDurations: [
      StageDuration(stage: "ingest", milliseconds: 420),
      StageDuration(stage: "backfill", milliseconds: 201_250),
      StageDuration(stage: "compare", milliseconds: 1_530),
      StageDuration(stage: "report", milliseconds: 300),
    ],
    requests: [
      EndpointStatistics(
        endpoint: "get_transaction_history", requests: 40, successes: 35, failures: 1, retries: 4,
        rateLimited: 3, transportErrors: 1, verificationFailures: 0,
        errorsByStatus: [429: 3, 404: 2], errorsByCode: [4_040_010: 2]),
      EndpointStatistics(
        endpoint: "get_all_subscription_statuses", requests: 30, successes: 30),
      EndpointStatistics(
        endpoint: "get_app_transaction_info", requests: 12, successes: 11, failures: 1,
        verificationFailures: 1),
    ],
    teamTableFile: "entitlements-2024-06-15.csv",
    failOn: FailOnThreshold(expression: "loses_access>5%", isCrossed: true))

  static var productionSummary: RunSummary {
    var summary = simulatedSummary
    summary.runId = "20240616T090000Z-b210"
    summary.appStore = AppStoreSource(
      isSimulated: false, description: "App Store (production, api.storekit.apple.com)",
      environment: "production")
    summary.failOn = FailOnThreshold(expression: "needs_attention>50%", isCrossed: false)
    return summary
  }

  /// A nightly audit of the same world: compared with the night before, after a refresh that
  /// found three notifications Apple never delivered, against `--fail-on new:table:any`.
  static var auditSummary: RunSummary {
    var summary = simulatedSummary
    summary.runId = "20240616T030000Z-a0d1"
    summary.since = RunChangeCounts(
      previousRunId: "20240615T030000Z-9c2e", previousAsOf: at("2024-06-15T03:00:00Z"),
      primary: ChangeCounts(byKind: [
        .newFinding: 2, .resolved: 1, .categoryChanged: 1, .persisting: 21,
      ]),
      table: ChangeCounts(byKind: [.newFinding: 1, .resolved: 1, .persisting: 3]),
      newAccounts: 0, accountsWithNewFindings: 3)
    summary.refresh = RefreshFacts(
      notificationPages: 2, notificationsRead: 31, lostNotificationsFound: 3,
      dueByReason: ["notification": 4, "ran_out": 6], refreshed: 10, historyPages: 11,
      statusCalls: 10, requests: 23, watermarks: ["Production": at("2024-06-16T02:55:00Z")])
    summary.failOn = FailOnThreshold(
      expression: "new:table:any", isCrossed: true, counted: 1, tolerated: 0,
      counts: "new table findings")
    summary.lostNotifications = auditContext.lostNotifications.count
    return summary
  }

  /// What changed since the night before (consistent with ``auditSummary``'s counts) and the
  /// notifications Apple never delivered.
  static let auditContext = withTrend(
    RunContext(
      changes: [
        AccountChange(
          accountId: "acct-1005",
          primary: CategoryChange(from: "match", to: "billing_retry_as_active", kind: .newFinding),
          table: nil),
        AccountChange(
          accountId: "acct-1007", primary: nil,
          table: CategoryChange(from: "match", to: "grace_missed", kind: .newFinding)),
        AccountChange(
          accountId: "acct-1008",
          primary: CategoryChange(
            from: "stale_expired", to: "stale_renewed", kind: .categoryChanged),
          table: nil),
        AccountChange(
          accountId: "acct-1012",
          primary: CategoryChange(from: "match", to: "expiry_drift", kind: .newFinding), table: nil),
        AccountChange(
          accountId: "acct-1021",
          primary: CategoryChange(from: "stale_renewed", to: "match", kind: .resolved),
          table: CategoryChange(from: "refund_missed", to: "match", kind: .resolved)),
      ],
      lostNotifications: [
        LostNotification(
          uuid: "5b0a7c3e-0000-4000-8000-000000000001", environment: "Production",
          type: "DID_RENEW", subtype: nil, signedDate: at("2024-06-15T09:00:00Z"),
          originalTransactionId: "1000000000000001", customerKey: "7000000000000001",
          accounts: ["acct-1005"], firstAttempt: at("2024-06-15T09:00:01Z"),
          lastAttempt: at("2024-06-15T10:00:01Z"), reason: "UNSUCCESSFUL_HTTP_RESPONSE_CODE",
          signedPayload: "eyJhbGciOiJFUzI1NiJ9.eyJub3RpZmljYXRpb25UeXBlIjoiRElEX1JFTkVXIn0.c2ln"),
        LostNotification(
          uuid: "5b0a7c3e-0000-4000-8000-000000000002", environment: "Production",
          type: "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD",
          signedDate: at("2024-06-15T11:30:00Z"),
          originalTransactionId: "1000000000000001", customerKey: "7000000000000018",
          accounts: ["acct-1018", "acct-1019"], firstAttempt: at("2024-06-15T11:30:02Z"),
          lastAttempt: at("2024-06-15T12:30:02Z"), reason: "TIMED_OUT",
          signedPayload: "eyJhbGciOiJFUzI1NiJ9.eyJub3RpZmljYXRpb25UeXBlIjoiRElEX0ZBSUwifQ.c2ln"),
        LostNotification(
          uuid: "5b0a7c3e-0000-4000-8000-000000000003", environment: "Production",
          type: "REFUND", subtype: nil, signedDate: at("2024-06-16T01:15:00Z"),
          originalTransactionId: "1000000000000001", customerKey: nil, accounts: [],
          firstAttempt: at("2024-06-16T01:15:03Z"), lastAttempt: nil, reason: "TIMED_OUT",
          signedPayload: "eyJhbGciOiJFUzI1NiJ9.eyJub3RpZmljYXRpb25UeXBlIjoiUkVGVU5EIn0.c2ln"),
      ]))

  /// The audit's trend: three nights before it (the first a migration compared with nothing,
  /// the second's report folder since removed), then the audit itself.
  static let auditTrend: [RunTrendPoint] = [
    trendPoint(
      "20240613T030000Z-11aa", asOf: "2024-06-13T03:00:00Z", command: "migrate",
      impacts: [.losesAccess: 6, .gainsAccess: 3, .changesTerms: 4, .needsAttention: 2],
      since: nil, exitCode: 1, link: "../20240613T030000Z-11aa/report.html"),
    trendPoint(
      "20240614T030000Z-22bb", asOf: "2024-06-14T03:00:00Z", command: "audit",
      impacts: [.losesAccess: 5, .gainsAccess: 3, .changesTerms: 4, .needsAttention: 3],
      since: (new: 1, resolved: 2), exitCode: 0, link: nil),
    trendPoint(
      "20240615T030000Z-9c2e", asOf: "2024-06-15T03:00:00Z", command: "audit",
      impacts: [.losesAccess: 5, .gainsAccess: 2, .changesTerms: 4, .needsAttention: 3],
      since: (new: 0, resolved: 1), exitCode: 0, link: "../20240615T030000Z-9c2e/report.html"),
    trendPoint(
      "20240616T030000Z-a0d1", asOf: "2024-06-16T03:00:00Z", command: "audit", impacts: [:],
      since: nil, exitCode: nil, link: nil),
  ]

  static func withTrend(_ context: RunContext) -> RunContext {
    var context = context
    context.trend = auditTrend
    return context
  }

  /// A run of a trend: counts by impact and, when compared with a run before, new and resolved
  /// findings (all on the primary side).
  static func trendPoint(
    _ runId: String, asOf: String, command: String,
    impacts: [DiscrepancyCategory.Impact: Int], since: (new: Int, resolved: Int)?,
    exitCode: Int32?, link: String?
  ) -> RunTrendPoint {
    RunTrendPoint(
      entry: RunHistoryEntry(
        runId: runId, command: command, startedAt: at(asOf), asOf: at(asOf), status: .complete,
        accounts: impacts.values.reduce(0, +) + 10, impactCounts: impacts,
        tableImpactCounts: nil,
        since: since.map {
          RunChangeCounts(
            previousRunId: "earlier", previousAsOf: at(asOf),
            primary: ChangeCounts(byKind: [.newFinding: $0.new, .resolved: $0.resolved]),
            table: nil, newAccounts: 0)
        },
        lostNotifications: 0, exitCode: exitCode, reportDirectory: link == nil ? nil : "/r"),
      reportLink: link)
  }

  static let emptySummary = RunSummary(
    runId: "empty-run", toolVersion: "0.1.0", startedAt: at("2024-06-15T12:00:00Z"),
    finishedAt: at("2024-06-15T12:00:00.250Z"), asOf: asOf,
    appStore: AppStoreSource(
      isSimulated: true, description: "simulated App Store (world seed 9, 0 accounts)",
      environment: "auto"),
    inputs: RunInputs(recordsRead: 0, recordsAccepted: 0, recordsQuarantined: 0, accounts: 0))

  // MARK: - Building blocks

  static let monthly = "com.example.pro.monthly"
  static let yearly = "com.example.pro.yearly"
  static let lifetime = "com.example.lifetime"
  static let group = EntitlementKey.subscriptionGroup("20000001")

  static func view(
    _ status: EntitlementStatus, _ product: String? = monthly, expires: String? = nil,
    key: EntitlementKey = group, reason: String? = nil,
    configure: (inout EntitlementView) -> Void = { _ in }
  ) -> EntitlementView {
    var view = EntitlementView(key: key, status: status)
    view.productId = product
    view.kind = key == group ? .autoRenewable : .nonConsumable
    view.expiresDate = expires.map(at)
    view.reason = reason
    view.originalTransactionId = "1000000000000001"
    // Apple's prices, so the money at stake (and the order of "what to do first") has
    // something to count: a month of the monthly plan, a year of the yearly one, the lifetime
    // unlock once.
    if let product {
      view.currency = "USD"
      view.price = product == lifetime ? 29_990 : product == yearly ? 59_990 : 9_990
      let period =
        product == yearly ? 365 * Timestamp.millisecondsPerDay : 30 * Timestamp.millisecondsPerDay
      view.purchaseDate = view.expiresDate.map { $0.adding(milliseconds: -period) }
    }
    configure(&view)
    return view
  }

  static func response(
    status: Int64 = 0, environment: String? = "Production", captured: Timestamp? = captured,
    source: String = "receipts.ndjson:12", evaluated: Bool = true
  ) -> AccountEvidence.LegacyRecord {
    AccountEvidence.LegacyRecord(
      version: 1, kind: "response", source: source, status: status, environment: environment,
      capturedAt: captured, isEvaluated: evaluated)
  }

  static func seed(
    _ id: String, _ outcome: AccountEvidence.SeedId.Outcome = .found,
    environment: String? = "Production", error: String? = nil, unverified: Bool = false
  ) -> AccountEvidence.SeedId {
    AccountEvidence.SeedId(
      id: id, source: unverified ? "raw_receipt" : "latest_receipt_info", outcome: outcome,
      environment: environment, lastError: error, isUnverified: unverified)
  }

  static func evidence(
    seeds: [AccountEvidence.SeedId] = [seed("1000000000000001")],
    customers: [AccountEvidence.Customer] = [
      .init(key: "7000000000000001", environment: "Production", otherAccounts: [])
    ],
    records: [AccountEvidence.LegacyRecord] = [response()], captured: Timestamp? = captured
  ) -> AccountEvidence {
    AccountEvidence(
      capturedAt: captured, legacyRecords: records, seedIds: seeds, customers: customers)
  }

  static func keyed(
    _ id: String, _ category: DiscrepancyCategory, _ cause: DifferenceCause?, _ explanation: String,
    old: EntitlementView?, new: EntitlementView?, oldAtCapture: EntitlementView? = nil,
    newAtCapture: EntitlementView? = nil, table: EntitlementView? = nil,
    tableCategory: DiscrepancyCategory? = nil, flaws: [LegacyLogicFlaw] = [],
    extraKeys: [KeyComparison] = [], findings: [String] = [], evidence: AccountEvidence = evidence()
  ) -> AccountComparison {
    let key = KeyComparison(
      key: old?.key ?? new?.key ?? group, category: category, cause: cause, old: old, new: new,
      oldAtCapture: oldAtCapture, newAtCapture: newAtCapture, table: table,
      tableCategory: tableCategory, explanation: explanation)
    return AccountComparison(
      accountId: id, category: category, explanation: explanation, cause: cause,
      keys: [key] + extraKeys, secondaryFindings: findings, tableCategory: tableCategory,
      suspectedFlaws: flaws, evidence: evidence)
  }

  static func accountLevel(
    _ id: String, _ category: DiscrepancyCategory, _ explanation: String,
    evidence: AccountEvidence, keys: [KeyComparison] = [], findings: [String] = []
  ) -> AccountComparison {
    AccountComparison(
      accountId: id, category: category, explanation: explanation, cause: nil, keys: keys,
      secondaryFindings: findings, evidence: evidence)
  }

  // MARK: - The world

  static let comparisons: [AccountComparison] = [
    keyed(
      "acct-1001", .refundMissed, .freshness,
      "refunded on 2024-06-02 (REFUND_FULL); the snapshot of 2024-05-20 predates it",
      old: view(
        .active, expires: "2024-07-01T00:00:00Z", reason: "active until 2024-07-01T00:00:00Z"),
      new: view(.revoked, expires: "2024-07-01T00:00:00Z", reason: "revoked 2024-06-02") {
        $0.revocationDate = at("2024-06-02T10:00:00Z")
        $0.revocationType = "REFUND_FULL"
      },
      oldAtCapture: view(.active, expires: "2024-07-01T00:00:00Z"),
      newAtCapture: view(.active, expires: "2024-07-01T00:00:00Z"),
      table: view(.active, expires: "2024-07-01T00:00:00Z"), tableCategory: .refundMissed,
      flaws: [.ignoresCancellation]),
    keyed(
      "acct-1002", .revokedFamily, .logic,
      "removed from Family Sharing on 2024-05-10 (FAMILY_REVOKE)",
      old: view(.active, expires: "2024-06-30T00:00:00Z") { $0.ownership = "FAMILY_SHARED" },
      new: view(.revoked, expires: "2024-06-30T00:00:00Z") {
        $0.ownership = "FAMILY_SHARED"
        $0.revocationDate = at("2024-05-10T00:00:00Z")
        $0.revocationType = "FAMILY_REVOKE"
      }),
    keyed(
      "acct-1003", .proratedRefund, .freshness,
      "refunded 25% on 2024-06-05 (REFUND_PRORATED), which legacy receipts cannot show",
      old: view(.active, yearly, expires: "2025-01-10T00:00:00Z"),
      new: view(.revoked, yearly, expires: "2025-01-10T00:00:00Z") {
        $0.revocationDate = at("2024-06-05T00:00:00Z")
        $0.revocationType = "REFUND_PRORATED"
        $0.revocationPercentage = 25_000
      }),
    keyed(
      "acct-1004", .oneTimeRevoked, .logic, "the lifetime unlock was refunded on 2024-03-01",
      old: view(.active, lifetime, key: .product(lifetime)),
      new: view(.revoked, lifetime, key: .product(lifetime)) {
        $0.revocationDate = at("2024-03-01T00:00:00Z")
      }),
    keyed(
      "acct-1005", .billingRetryAsActive, .logic,
      "in billing retry since 2024-06-10; the old logic reads auto_renew_status 1 as access",
      old: view(.active, expires: "2024-06-10T00:00:00Z") { $0.autoRenewStatus = true },
      new: view(.billingRetry, expires: "2024-06-10T00:00:00Z") {
        $0.autoRenewStatus = true
        $0.expirationIntent = 2
      },
      table: view(.active, expires: "2024-06-10T00:00:00Z"), tableCategory: .billingRetryAsActive,
      flaws: [.autoRenewMeansEntitled]),
    keyed(
      "acct-1006", .staleExpired, .freshness, "expired on 2024-06-01 after the customer cancelled",
      old: view(.active, expires: "2024-07-01T00:00:00Z"),
      new: view(.expired, expires: "2024-06-01T00:00:00Z") {
        $0.autoRenewStatus = false
        $0.expirationIntent = 1
      },
      extraKeys: [
        KeyComparison(
          key: .product(lifetime), category: .match, cause: nil,
          old: view(.active, lifetime, key: .product(lifetime)),
          new: view(.active, lifetime, key: .product(lifetime)),
          explanation: "both own the lifetime unlock")
      ],
      findings: ["product:com.example.lifetime matches"]),
    keyed(
      "acct-1007", .graceMissed, .logic, "in the billing grace period until 2024-06-20",
      old: view(.expired, expires: "2024-06-13T00:00:00Z"),
      new: view(.gracePeriod, expires: "2024-06-13T00:00:00Z") {
        $0.gracePeriodExpiresDate = at("2024-06-20T00:00:00Z")
      },
      table: view(.expired, expires: "2024-06-13T00:00:00Z"), tableCategory: .graceMissed,
      flaws: [.noGracePeriod]),
    keyed(
      "acct-1008", .staleRenewed, .freshness, "renewed twice since the snapshot",
      old: view(.expired, expires: "2024-05-01T00:00:00Z"),
      new: view(.active, expires: "2024-07-01T00:00:00Z") { $0.transactionId = "1000000000000099" }),
    keyed(
      "acct-1009", .familySharedOnlyInAPI, .logic, "shared by a family member; never restored",
      old: nil,
      new: view(.active, expires: "2024-07-05T00:00:00Z") { $0.ownership = "FAMILY_SHARED" }),
    keyed(
      "acct-1010", .missingInReceipt, .undetermined,
      "a purchase the stored receipt does not contain; no capture instant is known",
      old: nil, new: view(.active, yearly, expires: "2025-02-01T00:00:00Z"),
      evidence: evidence(records: [response(captured: nil)], captured: nil)),
    keyed(
      "acct-1011", .upgradeMisread, .logic, "upgraded to the yearly plan on 2024-06-01",
      old: view(.active, monthly, expires: "2024-07-01T00:00:00Z"),
      new: view(.active, yearly, expires: "2025-06-01T00:00:00Z") { $0.offerType = 1 }),
    keyed(
      "acct-1012", .expiryDrift, .freshness, "the App Store's expiry is 5 days later",
      old: view(.active, expires: "2024-06-20T00:00:00Z"),
      new: view(.active, expires: "2024-06-25T00:00:00Z")),
    accountLevel(
      "acct-1013", .legacyErrorStatus, "every stored response has an error status (21010)",
      evidence: evidence(
        seeds: [], customers: [], records: [response(status: 21010, evaluated: false)])),
    accountLevel(
      "acct-1014", .noTransactionId, "the stored receipt is empty: nothing to look up",
      evidence: evidence(seeds: [], customers: [])),
    accountLevel(
      "acct-1015", .unresolved, "1 of 2 ids could not be resolved; nothing is guessed",
      evidence: evidence(
        seeds: [
          seed("1000000000000015"),
          seed(
            "1000000000000016", .failed, environment: nil,
            error: "retries exhausted after 5 attempts (HTTP 503)"),
        ])),
    accountLevel(
      "acct-1016", .unknownToAppStore, "every id is unknown in both environments (4040010)",
      evidence: evidence(
        seeds: [seed("1000000000000017", .unknown, environment: nil)], customers: [])),
    accountLevel(
      "acct-1017", .sandboxOnly, "every customer exists only in sandbox",
      evidence: evidence(
        seeds: [seed("2000000000000001", environment: "Sandbox")],
        customers: [.init(key: "7000000000000017", environment: "Sandbox", otherAccounts: [])],
        records: [response(environment: "Sandbox")])),
    accountLevel(
      "acct-1018", .sharedAppleAccount,
      "the Apple Account 7000000000000018 also belongs to acct-1019",
      evidence: evidence(
        customers: [
          .init(key: "7000000000000018", environment: "Production", otherAccounts: ["acct-1019"])
        ])),
    accountLevel(
      "acct-1019", .sharedAppleAccount,
      "the Apple Account 7000000000000018 also belongs to acct-1018",
      evidence: evidence(
        customers: [
          .init(key: "7000000000000018", environment: "Production", otherAccounts: ["acct-1018"])
        ],
        records: [response(source: "responses/acct-1019.json")])),
    accountLevel(
      "acct-1020", .idsOnly, "only a raw receipt is stored; the old logic cannot be evaluated",
      evidence: evidence(
        seeds: [seed("1000000000000020", unverified: true)],
        records: [
          AccountEvidence.LegacyRecord(
            version: 1, kind: "raw_receipt", source: "receipts.ndjson:20", status: nil,
            environment: nil, capturedAt: captured, isEvaluated: false)
        ])),
    keyed(
      "acct-1021", .match, nil, "both active until 2024-07-01",
      old: view(.active, expires: "2024-07-01T00:00:00Z"),
      new: view(.active, expires: "2024-07-01T06:00:00Z"),
      table: view(.active, expires: "2024-07-01T00:00:00Z"), tableCategory: .match),
    keyed(
      "acct-1022", .match, nil, "both expired",
      old: view(.expired, expires: "2024-01-01T00:00:00Z"),
      new: view(.expired, expires: "2024-01-01T00:00:00Z")),
    keyed(
      scriptId, .staleExpired, .freshness, "expired on 2024-06-03 <b>after</b> the snapshot & more",
      old: view(.active, expires: "2024-06-30T00:00:00Z"),
      new: view(.expired, expires: "2024-06-03T00:00:00Z")),
    keyed(
      imageId, .match, nil, "both active",
      old: view(.active, expires: "2024-07-02T00:00:00Z"),
      new: view(.active, expires: "2024-07-02T00:00:00Z")),
    keyed(
      formulaId, .missingInReceipt, .freshness,
      "=SUM(A1:A9) bought after the snapshot, \"on sale\"",
      old: nil, new: view(.active, expires: "2024-07-09T00:00:00Z")),
    keyed(
      escapeId, .match, nil, "both active\u{1B}[0m",
      old: view(.active, expires: "2024-08-01T00:00:00Z"),
      new: view(.active, expires: "2024-08-01T00:00:00Z")),
    keyed(
      unicodeId, .expiryDrift, .logic, "the App Store's expiry is 40 days earlier — Zoë's plan",
      old: view(.active, yearly, expires: "2024-09-10T00:00:00Z"),
      new: view(.active, yearly, expires: "2024-08-01T00:00:00Z")),
    keyed(
      markdownId, .staleRenewed, .undetermined, "renewed; *not* a [link](x) | pipe",
      old: view(.expired, expires: "2024-06-01T00:00:00Z"),
      new: view(.active, expires: "2024-06-20T00:00:00Z"),
      evidence: evidence(captured: nil)),
  ]
}
