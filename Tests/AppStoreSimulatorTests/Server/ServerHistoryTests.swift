import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Foundation
import LegacyReceipts
import Testing

@Suite("Simulator server: history pages, revisions and filters")
struct ServerHistoryTests {
  typealias World = HandBuiltWorld

  /// The subscriber's transaction ids in ascending last-modified order, as the truth says.
  static var ascendingIds: [String] {
    World.subscriber.transactions.sorted {
      ($0.lastModified(at: World.now), $0.transactionId)
        < ($1.lastModified(at: World.now), $1.transactionId)
    }.map(\.transactionId)
  }

  func pages(
    _ harness: SimulatorHarness, query: HistoryQuery = HistoryQuery(), from revision: String? = nil
  ) async throws -> [HistoryResponse] {
    var pages: [HistoryResponse] = []
    var revision = revision
    repeat {
      let page = try await harness.client.transactionHistory(
        World.subscriptionOriginal, query: query, revision: revision, environment: .production)
      pages.append(page)
      revision = page.revision
    } while pages.last?.hasMore == true
    return pages
  }

  @Test("pages of 20 in last-modified order, ascending by default and descending on request")
  func pagesInOrder() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let ascending = try await pages(harness)
    #expect(ascending.map(\.transactions.count) == [20, 20, 6])
    #expect(ascending.map(\.hasMore) == [true, true, false])
    #expect(Set(ascending.compactMap(\.revision)).count == 3, "each page has its own revision")
    let ids = ascending.flatMap(\.transactions).compactMap(\.payload.transactionId)
    #expect(ids == Self.ascendingIds)
    // Bought 900 days ago, refunded two days ago: it sorts by its refund, near the end.
    #expect(ids.firstIndex(of: World.refundedConsumableId) == ids.count - 1)

    let descending = try await pages(harness, query: HistoryQuery(sort: .descending))
    #expect(descending.map(\.transactions.count) == [20, 20, 6])
    #expect(
      descending.flatMap(\.transactions).compactMap(\.payload.transactionId)
        == Self.ascendingIds.reversed())
  }

  @Test("a transaction modified between pages comes back later in an ascending walk, updated")
  func modifiedBetweenPages() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let first = try await harness.client.transactionHistory(
      World.subscriptionOriginal, environment: .production)
    let firstIds = first.transactions.compactMap(\.payload.transactionId)
    #expect(firstIds.contains(World.nonConsumableId))
    let token = "a2c4e6f8-0b1d-4f3a-8c5e-7a9b1c3d5e7f"
    try await harness.client.setAppAccountToken(
      token, forOriginalTransactionId: World.nonConsumableId, environment: .production)

    let rest = try await pages(harness, from: first.revision)
    let later = rest.flatMap(\.transactions)
    let again = try #require(later.last)
    #expect(again.payload.transactionId == World.nonConsumableId, "it moved to the end")
    #expect(again.payload.appAccountToken == token)
    #expect(again.payload.signedDate == World.now.adding(milliseconds: 1))
    let earlier = try #require(
      first.transactions.first { $0.payload.transactionId == World.nonConsumableId })
    #expect(earlier.payload.appAccountToken == nil)
    #expect(first.transactions.count + later.count == World.subscriber.transactions.count + 1)

    // The client's merge keeps the newer copy.
    var merger = TransactionHistoryMerger()
    merger.add(first.transactions)
    merger.add(later)
    let merged = merger.transactions.first { $0.payload.transactionId == World.nonConsumableId }
    #expect(merged?.payload.appAccountToken == token)
  }

  @Test("the last revision of an ascending walk returns only what changed since")
  func incrementalRevision() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let walk = try await harness.client.collectHistory(
      World.subscriptionOriginal, environment: .production)
    #expect(walk.transactions.count == World.subscriber.transactions.count)
    let stored = try #require(walk.revision)

    let quiet = try await harness.client.transactionHistory(
      World.subscriptionOriginal, revision: stored, environment: .production)
    #expect(quiet.transactions.isEmpty && !quiet.hasMore)
    #expect(quiet.revision == stored)

    let token = "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"
    try await harness.client.setAppAccountToken(
      token, forOriginalTransactionId: World.subscriptionOriginal, environment: .production)
    let changes = try await pages(harness, from: stored)
    #expect(changes.map(\.transactions.count) == [1], "only the latest renewal changed")
    let changed = changes.flatMap(\.transactions)
    #expect(
      changed.compactMap(\.payload.transactionId)
        == [
          World.subscriber.transactions.last {
            $0.originalTransactionId == World.subscriptionOriginal
          }?.transactionId
        ])
    #expect(changed.allSatisfy { $0.payload.appAccountToken == token })
    #expect(changed.allSatisfy { $0.payload.signedDate == World.now.adding(milliseconds: 1) })

    let settled = try await harness.client.transactionHistory(
      World.subscriptionOriginal, revision: changes.last?.revision, environment: .production)
    #expect(settled.transactions.isEmpty && !settled.hasMore)
  }

  @Test(
    "a revision is refused (4000005) with other filters, another order, another customer or garbage"
  )
  func invalidRevisions() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let filtered = HistoryQuery(productTypes: [.autoRenewable, .consumable])
    let page = try await harness.client.transactionHistory(
      World.subscriptionOriginal, query: filtered, environment: .production)
    let revision = try #require(page.revision)
    let attempts: [(String, HistoryQuery, String)] = [
      (World.subscriptionOriginal, HistoryQuery(), revision),
      (World.subscriptionOriginal, HistoryQuery(productTypes: [.consumable]), revision),
      (
        World.subscriptionOriginal,
        HistoryQuery(productTypes: [.autoRenewable, .consumable], sort: .descending), revision
      ),
      (World.memberOriginal, filtered, revision),
      (World.subscriptionOriginal, filtered, "not-a-revision"),
      (World.subscriptionOriginal, filtered, "eyJzIjoxfQ"),
    ]
    for (id, query, revision) in attempts {
      await #expect {
        _ = try await harness.client.transactionHistory(
          id, query: query, revision: revision, environment: .production)
      } throws: { ($0 as? AppStoreAPIError)?.code == 4_000_005 }
    }
    // The same filters, their values in another order, continue the walk: 45 match.
    let same = try await harness.client.transactionHistory(
      World.subscriptionOriginal, query: HistoryQuery(productTypes: [.consumable, .autoRenewable]),
      revision: revision, environment: .production)
    #expect(same.transactions.count == 20 && same.hasMore)
    let last = try await harness.client.transactionHistory(
      World.subscriptionOriginal, query: filtered, revision: same.revision, environment: .production
    )
    #expect(last.transactions.count == 5 && !last.hasMore)
  }

  static let filters: [(String, HistoryQuery, @Sendable (SimulatedTransaction) -> Bool)] = [
    (
      "startDate and endDate bound the purchase date",
      HistoryQuery(startDate: World.at(-300), endDate: World.at(-100)),
      { $0.purchaseDate >= World.at(-300) && $0.purchaseDate < World.at(-100) }
    ),
    (
      "productId values are OR-ed",
      HistoryQuery(productIds: ["com.example.coins.100", "com.example.filters.lifetime"]),
      { ["com.example.coins.100", "com.example.filters.lifetime"].contains($0.productId) }
    ),
    (
      "productType values are OR-ed",
      HistoryQuery(productTypes: [.consumable, .nonConsumable]),
      { $0.kind == .consumable || $0.kind == .nonConsumable }
    ),
    (
      "subscriptionGroupIdentifier",
      HistoryQuery(subscriptionGroupIdentifiers: ["21000002"]), { $0.group == "21000002" }
    ),
    (
      "inAppOwnershipType", HistoryQuery(inAppOwnershipType: .familyShared),
      { $0.ownership == .familyShared }
    ),
    ("revoked=true", HistoryQuery(revoked: true), { $0.revocation(at: World.now) != nil }),
    ("revoked=false", HistoryQuery(revoked: false), { $0.revocation(at: World.now) == nil }),
    (
      "different parameters are AND-ed",
      HistoryQuery(startDate: World.at(-400), productTypes: [.autoRenewable], revoked: false),
      {
        $0.purchaseDate >= World.at(-400) && $0.kind == .autoRenewable
          && $0.revocation(at: World.now) == nil
      }
    ),
  ]

  @Test("every filter returns exactly the matching transactions", arguments: 0..<8)
  func filter(_ index: Int) async throws {
    let (name, query, predicate) = Self.filters[index]
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let history = try await harness.client.collectHistory(
      World.nonConsumableId, query: query, environment: .production)
    let expected = Set(World.subscriber.transactions.filter(predicate).map(\.transactionId))
    #expect(!expected.isEmpty, "\(name): the world must have matches")
    #expect(expected.count < World.subscriber.transactions.count, "\(name): and non-matches")
    #expect(Set(history.transactions.compactMap(\.payload.transactionId)) == expected, "\(name)")
  }

  static let invalidQueries: [(String, Int64)] = [
    ("sort=UP", 4_000_021),
    ("productType=GAME", 4_000_022),
    ("productId=", 4_000_023),
    ("subscriptionGroupIdentifier=", 4_000_024),
    ("inAppOwnershipType=OWNED", 4_000_026),
    ("inAppOwnershipType=PURCHASED&inAppOwnershipType=FAMILY_SHARED", 4_000_026),
    ("revoked=yes", 4_000_030),
    ("startDate=yesterday", 4_000_015),
    ("endDate=-5", 4_000_016),
    ("startDate=10&endDate=10", 4_000_013),
    ("revision=garbage", 4_000_005),
  ]

  @Test("each invalid parameter has its error code", arguments: invalidQueries)
  func invalidParameter(_ query: String, _ code: Int64) async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    let answer = try await harness.raw(
      "GET", "/inApps/v2/history/\(World.subscriptionOriginal)", query: query)
    #expect(answer.status == 400)
    #expect(SimulatorHarness.errorCode(of: answer) == code)
  }

  @Test("which error wins between a bad id and a bad parameter is a setting")
  func errorPrecedence() async throws {
    for precedence in UnconfirmedBehaviour.ErrorPrecedence.allCases {
      let harness = try SimulatorHarness.start(world: World.world) {
        $0.behaviour.errorPrecedence = precedence
      }
      defer { harness.stop() }
      for (path, query) in [
        ("/inApps/v2/history/12ab", "sort=UP"), ("/inApps/v1/subscriptions/12ab", "status=9"),
      ] {
        let answer = try await harness.raw("GET", path, query: query)
        let expected: Int64 =
          precedence == .identifierFirst ? 4_000_006 : (query == "sort=UP" ? 4_000_021 : 4_000_031)
        #expect(SimulatorHarness.errorCode(of: answer) == expected, "\(precedence) \(path)")
      }
    }
  }

  @Test("an unknown status value is refused with 4000031")
  func invalidStatus() async throws {
    let harness = try SimulatorHarness.start(world: World.world)
    defer { harness.stop() }
    await #expect {
      _ = try await harness.client.allSubscriptionStatuses(
        World.subscriptionOriginal, statuses: [SubscriptionStatus(rawValue: 9)],
        environment: .production)
    } throws: { ($0 as? AppStoreAPIError)?.code == 4_000_031 }
  }
}
