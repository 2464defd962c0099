import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Foundation
import LegacyReceipts
import Testing

@Suite("Simulator server: endpoints answer the world's truth through the real client")
struct ServerEndpointTests {
  @Test("statuses equal Customer.subscriptionStatus for every subscription of every customer")
  func statusesMatchTheTruth() async throws {
    let harness = try SimulatorHarness.start()
    defer { harness.stop() }
    let now = harness.now
    var checked = 0
    for environment in SimulatedEnvironment.allCases {
      let customers = ServerFixture.customers(in: environment).filter {
        $0.transactions.contains { $0.kind == .autoRenewable }
      }
      let api: AppStoreEnvironment = environment == .production ? .production : .sandbox
      for customer in customers {
        let answer = try await harness.client.allSubscriptionStatuses(
          customer.transactions[0].transactionId, environment: api)
        let originals = Set(
          customer.transactions.filter { $0.kind == .autoRenewable }.map(\.originalTransactionId))
        var seen: Set<String> = []
        for group in answer.groups {
          for entry in group.lastTransactions {
            let truth = try #require(
              customer.subscriptionStatus(
                originalTransactionId: entry.originalTransactionId, at: now))
            #expect(entry.status.rawValue == Int64(truth.status.serverAPIStatus))
            #expect(entry.transaction.payload.transactionId == truth.transaction.transactionId)
            #expect(group.subscriptionGroupIdentifier == truth.transaction.group)
            #expect(entry.renewalInfo.payload.originalTransactionId == entry.originalTransactionId)
            #expect(
              entry.renewalInfo.payload.autoRenewStatus
                == (truth.renewal?.autoRenewStatus == true ? .on : .off))
            #expect(entry.renewalInfo.payload.appTransactionId == customer.appTransactionId)
            #expect(seen.insert(entry.originalTransactionId).inserted)
            checked += 1
          }
        }
        #expect(seen == originals, "one entry per original transaction id")
        #expect(answer.environment == api)
        #expect(answer.bundleId == harness.world.bundleId)
      }
    }
    #expect(checked > 100)
  }

  @Test("a whole history walk returns exactly the customer's transactions, with every field")
  func historyMatchesTheTruth() async throws {
    let harness = try SimulatorHarness.start()
    defer { harness.stop() }
    let now = harness.now
    let customers = ServerFixture.customers(in: .production).filter { !$0.transactions.isEmpty }
    for customer in customers {
      // Any id of the customer returns the whole customer: here the app transaction id.
      let history = try await harness.client.collectHistory(
        customer.appTransactionId, environment: .production)
      let byId = Dictionary(
        uniqueKeysWithValues: history.transactions.map {
          ($0.payload.transactionId ?? "", $0.payload)
        })
      #expect(Set(byId.keys) == Set(customer.transactions.map(\.transactionId)))
      for transaction in customer.transactions {
        let payload = try #require(byId[transaction.transactionId])
        #expect(payload.originalTransactionId == transaction.originalTransactionId)
        #expect(payload.productId == transaction.productId)
        #expect(payload.purchaseDate == transaction.purchaseDate)
        #expect(payload.expiresDate == transaction.expiresDate)
        #expect(payload.price == transaction.priceMilli)
        #expect(payload.inAppOwnershipType?.rawValue == transaction.ownership.description)
        #expect(payload.revocationDate == transaction.revocation(at: now)?.date)
        #expect(payload.revocationType?.rawValue == transaction.revocation(at: now)?.kind.rawValue)
        #expect((payload.isUpgraded ?? false) == transaction.isUpgraded(at: now))
        #expect(payload.offerType?.rawValue == transaction.offer?.type)
        #expect(payload.transactionReason?.rawValue == transaction.reason)
        #expect(payload.appTransactionId == customer.appTransactionId)
        #expect(payload.signedDate == now)
        #expect(payload.storefront == "USA" && payload.currency == "USD")
        #expect(payload.environment == .production && payload.bundleId == harness.world.bundleId)
      }
    }
  }

  @Test("each environment knows only its own customers; forgotten ones are known to neither")
  func environments() async throws {
    let harness = try SimulatorHarness.start()
    defer { harness.stop() }
    let sandbox = try #require(ServerFixture.customers(in: .sandbox).first)
    let production = try #require(ServerFixture.customers(in: .production).first)
    let forgotten = try #require(ServerFixture.world.customers.first { $0.isForgotten })
    for (customer, known) in [(sandbox, AppStoreEnvironment.sandbox), (production, .production)] {
      let other: AppStoreEnvironment = known == .production ? .sandbox : .production
      await #expect {
        _ = try await harness.client.transactionHistory(
          customer.appTransactionId, environment: other)
      } throws: { error in
        (error as? AppStoreAPIError)?.code == 4_040_010
      }
      let resolved = try await harness.client.resolvingEnvironment(for: customer.appTransactionId) {
        environment async throws(AppStoreAPIError) in
        try await harness.client.appTransactionInfo(
          customer.appTransactionId, environment: environment)
      }
      #expect(resolved.environment == known)
      #expect(resolved.value?.payload.appTransactionId == customer.appTransactionId)
      #expect(resolved.value?.payload.receiptType == known)
    }
    await #expect {
      _ = try await harness.client.resolvingEnvironment(for: forgotten.appTransactionId) {
        environment async throws(AppStoreAPIError) in
        try await harness.client.transactionHistory(
          forgotten.appTransactionId, environment: environment)
      }
    } throws: { error in
      guard case .notFoundInAnyEnvironment = (error as? AppStoreAPIError)?.kind else {
        return false
      }
      return true
    }
  }

  @Test("transaction info answers a transaction id, not an app transaction id")
  func transactionInfo() async throws {
    let harness = try SimulatorHarness.start()
    defer { harness.stop() }
    let customer = try #require(
      ServerFixture.customers(in: .production).first { $0.transactions.count >= 3 })
    let transaction = customer.transactions[2]
    let info = try await harness.client.transactionInfo(
      transaction.transactionId, environment: .production)
    #expect(info.payload.transactionId == transaction.transactionId)
    #expect(info.payload.type == PayloadTypes.type(of: transaction.kind))
    await #expect {
      _ = try await harness.client.transactionInfo(
        customer.appTransactionId, environment: .production)
    } throws: { ($0 as? AppStoreAPIError)?.code == 4_040_010 }
  }

  @Test("app transaction info by any id, and nil (4040019) for a customer without one")
  func appTransactionInfo() async throws {
    let customers = ServerFixture.customers(in: .production).filter { !$0.transactions.isEmpty }
    let without = customers[1]
    let harness = try SimulatorHarness.start {
      $0.customersWithoutAppTransaction = [without.appTransactionId]
    }
    defer { harness.stop() }
    let customer = customers[0]
    let info = try #require(
      try await harness.client.appTransactionInfo(
        customer.transactions.last?.transactionId ?? "", environment: .production))
    #expect(info.payload.appTransactionId == customer.appTransactionId)
    #expect(info.payload.originalPurchaseDate == customer.firstSeen)
    #expect(info.payload.appAppleId == harness.world.appAppleId)
    #expect(info.payload.bundleId == harness.world.bundleId)
    let none = try await harness.client.appTransactionInfo(
      without.appTransactionId, environment: .production)
    #expect(none == nil)
  }

  @Test("refund history holds exactly the refunded transactions, by revocation date")
  func refundHistory() async throws {
    let harness = try SimulatorHarness.start()
    defer { harness.stop() }
    let now = harness.now
    let refunded = ServerFixture.customers(in: .production).filter { customer in
      customer.transactions.contains {
        $0.revocation(at: now) != nil && $0.revocation?.kind != .familyRevoke
      }
    }
    #expect(refunded.count >= 3)
    for customer in refunded {
      let page = try await harness.client.refundHistory(
        customer.appTransactionId, environment: .production)
      let expected = customer.transactions.filter {
        $0.revocation(at: now) != nil && $0.revocation?.kind != .familyRevoke
      }.sorted {
        ($0.revocation?.date ?? now, $0.transactionId) < (
          $1.revocation?.date ?? now, $1.transactionId
        )
      }
      #expect(page.transactions.map(\.payload.transactionId) == expected.map(\.transactionId))
      #expect(page.hasMore == false)
    }
    let clean = try #require(
      ServerFixture.customers(in: .production).first { customer in
        !customer.transactions.isEmpty && customer.transactions.allSatisfy { $0.revocation == nil }
      })
    let empty = try await harness.client.refundHistory(
      clean.appTransactionId, environment: .production)
    #expect(empty.transactions.isEmpty && !empty.hasMore)
  }

  @Test("order look-up finds a paid transaction by its order id; anything else is invalid")
  func orderLookup() async throws {
    let harness = try SimulatorHarness.start()
    defer { harness.stop() }
    let transaction = try #require(
      ServerFixture.customers(in: .production).flatMap(\.transactions).first {
        $0.ownership == .purchased && $0.kind == .nonConsumable
      })
    let orderId = try #require(OrderIdentifier.orderId(for: transaction))
    #expect(OrderIdentifier.transactionId(forOrderId: orderId) == transaction.transactionId)
    #expect(OrderIdentifier.orderId(forTransactionId: "2000000000000001") == "M0MPS4DGSA0HQH")
    let found = try await harness.client.lookUpOrderId(orderId)
    #expect(found.status == .valid)
    #expect(found.transactions.map(\.payload.transactionId) == [transaction.transactionId])

    let shared = try #require(
      ServerFixture.customers(in: .production).flatMap(\.transactions).first {
        $0.ownership == .familyShared
      })
    #expect(OrderIdentifier.orderId(for: shared) == nil)
    let sharedOrder = try #require(OrderIdentifier.orderId(forTransactionId: shared.transactionId))
    for invalid in ["MXXXXXXXXXXXXX", "not-an-order", sharedOrder] {
      let answer = try await harness.client.lookUpOrderId(invalid)
      #expect(answer.status == .invalid && answer.transactions.isEmpty, "\(invalid)")
      // As Apple documents: an invalid order's answer has no signedTransactions array at all.
      let raw = try await harness.raw("GET", "/inApps/v1/lookup/\(invalid)")
      #expect(raw.status == 200)
      #expect(String(decoding: raw.body, as: UTF8.self) == #"{"status":1}"#, "\(invalid)")
    }
  }

  @Test("the sandbox answers order look-ups as configured (unconfirmed behaviour)")
  func sandboxOrderLookup() async throws {
    let transaction = try #require(
      ServerFixture.customers(in: .sandbox).flatMap(\.transactions).first {
        $0.ownership == .purchased
      })
    let orderId = try #require(OrderIdentifier.orderId(for: transaction))
    for behaviour in UnconfirmedBehaviour.SandboxOrderLookup.allCases {
      let harness = try SimulatorHarness.start { $0.behaviour.sandboxOrderLookup = behaviour }
      defer { harness.stop() }
      let answer = try await harness.client.lookUpOrderId(orderId, environment: .sandbox)
      #expect(answer.status == (behaviour == .invalid ? .invalid : .valid))
      let production = try await harness.client.lookUpOrderId(orderId, environment: .production)
      #expect(production.status == .invalid, "a sandbox order is unknown to production")
    }
  }

  @Test("empty answers are shaped as configured, and the client reads both shapes")
  func emptyAnswers() async throws {
    let customer = try #require(
      ServerFixture.customers(in: .production).first { $0.transactions.isEmpty })
    for shape in UnconfirmedBehaviour.EmptyAnswer.allCases {
      let harness = try SimulatorHarness.start { $0.behaviour.emptyAnswers = shape }
      defer { harness.stop() }
      let raw = try await harness.raw("GET", "/inApps/v2/history/\(customer.appTransactionId)")
      let text = String(decoding: raw.body, as: UTF8.self)
      #expect(text.contains("\"signedTransactions\"") == (shape == .emptyArrays))
      let history = try await harness.client.transactionHistory(
        customer.appTransactionId, environment: .production)
      #expect(history.transactions.isEmpty && !history.hasMore && history.revision != nil)
      let statuses = try await harness.client.allSubscriptionStatuses(
        customer.appTransactionId, environment: .production)
      #expect(statuses.groups.isEmpty)
    }
  }

  @Test("the status filter keeps only entries in the asked statuses")
  func statusFilter() async throws {
    let harness = try SimulatorHarness.start()
    defer { harness.stop() }
    let now = harness.now
    let customer = try #require(
      ServerFixture.customers(in: .production).first { customer in
        let originals = Set(
          customer.transactions.filter { $0.kind == .autoRenewable }.map(\.originalTransactionId))
        let statuses = Set(
          originals.compactMap {
            customer.subscriptionStatus(originalTransactionId: $0, at: now)?.status
          })
        return statuses.count >= 2
      })
    let all = try await harness.client.allSubscriptionStatuses(
      customer.appTransactionId, environment: .production)
    let first = try #require(all.groups.first?.lastTransactions.first?.status)
    let filtered = try await harness.client.allSubscriptionStatuses(
      customer.appTransactionId, statuses: [first], environment: .production)
    let kept = filtered.groups.flatMap(\.lastTransactions)
    #expect(!kept.isEmpty && kept.allSatisfy { $0.status == first })
    #expect(kept.count < all.groups.flatMap(\.lastTransactions).count)
  }
}

/// The transaction `type` the API uses for each product kind.
enum PayloadTypes {
  static func type(of kind: ProductKind) -> TransactionType {
    switch kind {
    case .autoRenewable: .autoRenewableSubscription
    case .nonConsumable: .nonConsumable
    case .consumable: .consumable
    case .nonRenewing: .nonRenewingSubscription
    }
  }
}
