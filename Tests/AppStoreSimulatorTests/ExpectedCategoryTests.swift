import AppStoreSimulator
import Chronology
import LegacyReceipts
import Testing

@Suite("Expected categories")
struct ExpectedCategoryTests {
  func findAccount(_ id: String) -> TeamAccount? { sampleWorld.accounts.first { $0.id == id } }

  @Test("every account gets exactly one category, and the sample shows most of them")
  func coverage() {
    let categories = sampleExpectations.map(\.expectation.category)
    #expect(categories.count == sampleWorld.accounts.count)
    let seen = Set(categories)
    for required: ExpectedCategory in [
      .legacyErrorStatus, .noTransactionId, .unknownToAppStore, .sandboxOnly, .sharedAppleAccount,
      .refundMissed,
      .oneTimeRevoked, .graceMissed, .staleRenewed, .missingInReceipt, .match,
    ] {
      #expect(seen.contains(required), "no account of category \(required)")
    }
    let table = Set(sampleExpectations.map(\.expectation.tableCategory))
    #expect(
      table.contains(.staleExpired) || table.contains(.billingRetryAsActive)
        || table.contains(.expiryDrift))
  }

  @Test("every expected category is justified by the world")
  func justified() throws {
    let now = sampleWorld.now
    for (expectation, _) in sampleExpectations {
      let account = try #require(findAccount(expectation.accountId))
      let customers = account.customers.map { sampleWorld.customers[$0] }
      let transactions = customers.flatMap(\.transactions)
      switch expectation.category {
      case .legacyErrorStatus:
        #expect(account.snapshots.contains { $0.style == .errorStatus || $0.style == .iOS6 })
        #expect(!account.snapshots.contains { $0.style == .modern })
      case .noTransactionId:
        for snapshot in account.snapshots where snapshot.style != .errorStatus {
          let visible = LegacyResponseWriter(world: sampleWorld).visibleTransactions(
            of: sampleWorld.customers[snapshot.customer], at: snapshot.capturedAt)
          #expect(visible.isEmpty, "\(account.id)")
        }
      case .unknownToAppStore:
        #expect(customers.allSatisfy { $0.isForgotten })
      case .sandboxOnly:
        #expect(customers.allSatisfy { $0.environment == .sandbox })
      case .sharedAppleAccount:
        #expect(
          account.customers.contains { customer in
            sampleWorld.accounts.filter { $0.customers.contains(customer) }.count > 1
          })
      case .refundMissed:
        #expect(
          transactions.contains { $0.revocation?.kind == .refundFull && $0.revocation!.date <= now }
        )
      case .revokedFamily:
        #expect(transactions.contains { $0.revocation?.kind == .familyRevoke })
      case .proratedRefund:
        #expect(transactions.contains { $0.revocation?.kind == .refundProrated })
      case .oneTimeRevoked:
        #expect(transactions.contains { $0.kind != .autoRenewable && $0.revocation != nil })
      case .graceMissed:
        #expect(
          customers.contains { customer in
            customer.truthEntitlements(at: now).values.contains { $0.status == .gracePeriod }
          })
      case .staleRenewed:
        let latest = account.snapshots.map(\.capturedAt).max() ?? now
        #expect(
          transactions.contains { $0.purchaseDate > latest }
            || customers.contains { c in
              c.truthEntitlements(at: now).values.contains { $0.status == .active }
            })
      case .familySharedOnlyInAPI:
        #expect(transactions.contains { $0.ownership == .familyShared && $0.revocation == nil })
      case .upgradeMisread:
        #expect(transactions.contains { $0.upgradedAt != nil })
      case .idsOnly:
        #expect(
          account.snapshots.contains {
            [.rawReceipt, .appTransactionIdOnly, .orderIdOnly].contains($0.style)
          })
        #expect(!account.snapshots.contains { $0.style == .modern || $0.style == .iOS6 })
      case .staleAppStoreData:
        // Only data fetched before the comparison instant can have run out.
        Issue.record("\(account.id): stale without data older than the comparison")
      case .durationUnknown:
        // The generated catalogue gives every non-renewing subscription its duration.
        Issue.record("\(account.id): a duration unknown to a generated catalogue")
      case .missingInReceipt, .expiryDrift, .match, .staleExpired, .billingRetryAsActive,
        .unresolved:
        break
      }
    }
  }

  @Test("the rules classify keys as Documentation/Discrepancies.md says")
  func keyRules() {
    let key = EntitlementKey.subscriptionGroup("G")
    func old(_ status: EntitlementStatus, product: String = "a", expires: Int64 = 10 * 86_400_000)
      -> OldEntitlement
    {
      var entitlement = OldEntitlement(key: key, status: status, kind: .autoRenewable, reason: "")
      entitlement.productId = product
      entitlement.expiresDate = Timestamp(millisecondsSince1970: expires)
      return entitlement
    }
    func new(
      _ status: EntitlementStatus, product: String = "a", expires: Int64 = 10 * 86_400_000,
      revoked: Revocation.Kind? = nil, family: Bool = false
    ) -> TruthEntitlement {
      TruthEntitlement(
        key: key, status: status, productId: product,
        expiresDate: Timestamp(millisecondsSince1970: expires),
        revocation: revoked.map {
          Revocation(date: Timestamp(millisecondsSince1970: 0), kind: $0, reason: 0)
        },
        ownership: family ? .familyShared : .purchased, transactionId: "1",
        originalTransactionId: "1")
    }
    let cases: [(OldEntitlement?, TruthEntitlement?, ExpectedCategory)] = [
      (old(.active), new(.revoked, revoked: .refundFull), .refundMissed),
      (old(.active), new(.revoked, revoked: .familyRevoke), .revokedFamily),
      (old(.active), new(.revoked, revoked: .refundProrated), .proratedRefund),
      (old(.active), new(.billingRetry), .billingRetryAsActive),
      (old(.gracePeriod), new(.expired), .staleExpired),
      (old(.active), nil, .staleExpired),
      (old(.expired), new(.gracePeriod), .graceMissed),
      (old(.billingRetry), new(.active), .staleRenewed),
      (nil, new(.active, family: true), .familySharedOnlyInAPI),
      (nil, new(.active), .missingInReceipt),
      (old(.active, product: "a"), new(.active, product: "b"), .upgradeMisread),
      (old(.active, expires: 0), new(.active, expires: 2 * 86_400_000), .expiryDrift),
      (old(.active, expires: 0), new(.active, expires: 86_400_000), .match),
      (old(.expired), new(.revoked, revoked: .refundFull), .match),
      (nil, new(.expired), .match),
    ]
    for (oldSide, newSide, expected) in cases {
      let old = oldSide.map { [key: $0] } ?? [:]
      let new = newSide.map { [key: $0] } ?? [:]
      #expect(ExpectedCategoryOracle.classify(old: old, new: new) == expected, "\(expected)")
    }
  }
}
