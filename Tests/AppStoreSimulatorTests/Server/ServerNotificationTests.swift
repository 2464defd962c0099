import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Foundation
import LegacyReceipts
import Testing

@Suite("Simulator server: notification history")
struct ServerNotificationTests {
  static let day = Timestamp.millisecondsPerDay
  /// A smaller world than the other suites': walking every notification is signing and
  /// verifying three values per notification.
  static let world = WorldGenerator().generate(accounts: 70, seed: 8)

  func start(configure: (inout SimulatorConfiguration) -> Void = { _ in }) throws
    -> SimulatorHarness
  {
    try SimulatorHarness.start(world: Self.world, configure: configure)
  }

  /// Every page of a request, following the pagination token.
  func walk(
    _ harness: SimulatorHarness, _ request: NotificationHistoryRequest,
    environment: AppStoreEnvironment = .production
  ) async throws -> [NotificationHistoryItem] {
    var items: [NotificationHistoryItem] = []
    var token: String?
    var pages = 0
    repeat {
      let page = try await harness.client.notificationHistory(
        request, paginationToken: token, environment: environment)
      #expect(page.items.count <= 20)
      #expect(page.hasMore == (page.paginationToken != nil))
      items += page.items
      token = page.paginationToken
      pages += 1
    } while token != nil
    #expect(pages == max(1, (items.count + 19) / 20))
    return items
  }

  @Test("a token set later never reaches back into notifications already sent")
  func tokenDoesNotRewriteSentNotifications() async throws {
    let harness = try start()
    defer { harness.stop() }
    let now = harness.now
    let request = NotificationHistoryRequest(
      startDate: now.adding(milliseconds: -180 * Self.day), endDate: now.adding(milliseconds: 1))
    let verifier = harness.client.verifier(for: .production)
    // The purchase named by the latest notification: its latest transaction is the one a token
    // lands on, so the bug this guards against would show there first.
    let before = try await walk(harness, request)
    let named = try #require(
      before.compactMap { item -> JWSTransaction? in
        guard let jws = item.notification.payload.data?.signedTransactionInfo else { return nil }
        return try? verifier.verifyTransaction(jws).payload
      }.last { $0.inAppOwnershipType != .familyShared })
    let original = try #require(named.originalTransactionId)
    // A fresh server, so the notifications are signed only after the token is set.
    let fresh = try start()
    defer { fresh.stop() }
    let token = "0f1e2d3c-4b5a-4697-8877-665544332211"
    try await fresh.client.setAppAccountToken(
      token, forOriginalTransactionId: original, environment: .production)
    let after = try await walk(fresh, request)
    #expect(after.count == before.count)
    for item in after {
      guard let jws = item.notification.payload.data?.signedTransactionInfo else { continue }
      let transaction = try fresh.client.verifier(for: .production).verifyTransaction(jws).payload
      #expect(transaction.appAccountToken != token, "a sent notification was rewritten")
    }
    // The purchase itself carries the token from now on.
    let statuses = try await fresh.client.allSubscriptionStatuses(
      original, environment: .production)
    let current = statuses.groups.flatMap(\.lastTransactions).first {
      $0.originalTransactionId == original
    }
    if let current { #expect(current.transaction.payload.appAccountToken == token) }
  }

  @Test("the last 180 days of notifications: what the world's events say, in order, once each")
  func wholeWindow() async throws {
    let harness = try start()
    defer { harness.stop() }
    let now = harness.now
    let start = now.adding(milliseconds: -180 * Self.day)
    let items = try await walk(
      harness, NotificationHistoryRequest(startDate: start, endDate: now.adding(milliseconds: 1)))
    let payloads = items.map(\.notification.payload)
    #expect(Set(payloads.compactMap(\.notificationUUID)).count == items.count)
    let dates = payloads.compactMap(\.signedDate)
    #expect(dates == dates.sorted() && dates.count == items.count)
    #expect(dates.allSatisfy { $0 >= start && $0 <= now })

    func count(_ type: NotificationType, _ subtype: NotificationSubtype? = nil) -> Int {
      payloads.filter { $0.notificationType == type && (subtype == nil || $0.subtype == subtype) }
        .count
    }
    let transactions = ServerFixture.customers(in: .production, of: Self.world).flatMap(
      \.transactions)
    func inWindow(_ date: Timestamp?) -> Bool { date.map { $0 >= start && $0 <= now } ?? false }
    let revocations = transactions.compactMap(\.revocation).filter { inWindow($0.date) }
    #expect(count(.refund) == revocations.filter { $0.kind != .familyRevoke }.count)
    #expect(count(.revoke) == revocations.filter { $0.kind == .familyRevoke }.count)
    let firstPurchases = Dictionary(
      grouping: transactions.filter { $0.kind == .autoRenewable }, by: \.originalTransactionId
    ).values.compactMap { $0.map(\.purchaseDate).min() }
    #expect(count(.subscribed, .initialBuy) == firstPurchases.filter(inWindow).count)
    let oneTime = transactions.filter {
      $0.kind != .autoRenewable && $0.ownership == .purchased && inWindow($0.purchaseDate)
    }
    #expect(count(.oneTimeCharge) == oneTime.count)
    #expect(count(.didRenew) > 0 && count(.expired) > 0 && count(.didFailToRenew) > 0)
    #expect(count(.didChangeRenewalStatus, .autoRenewDisabled) > 0)
  }

  @Test("a customer's notifications carry that customer's data as it stood at the event")
  func oneCustomer() async throws {
    let harness = try start()
    defer { harness.stop() }
    let now = harness.now
    let start = now.adding(milliseconds: -180 * Self.day)
    let refunded = try #require(
      ServerFixture.customers(in: .production, of: Self.world).first { customer in
        customer.transactions.contains {
          $0.revocation.map { $0.kind != .familyRevoke && $0.date >= start } ?? false
        }
      })
    let refund = try #require(
      refunded.transactions.first {
        $0.revocation.map { $0.kind != .familyRevoke && $0.date >= start } ?? false
      })
    let items = try await walk(
      harness,
      NotificationHistoryRequest(
        startDate: start, endDate: now, transactionId: refunded.transactions[0].transactionId))
    #expect(!items.isEmpty)
    for item in items {
      #expect(
        item.notification.payload.data?.transaction?.payload.appTransactionId
          == refunded.appTransactionId)
    }
    let notice = try #require(
      items.first { $0.notification.payload.notificationType == .refund })
    let transaction = try #require(notice.notification.payload.data?.transaction?.payload)
    #expect(transaction.transactionId == refund.transactionId)
    #expect(transaction.revocationDate == refund.revocation?.date)
    #expect(transaction.signedDate == refund.revocation?.date)
    #expect(notice.notification.payload.signedDate == refund.revocation?.date)
    #expect(notice.sendAttempts.map(\.sendAttemptResult) == [.success])

    let unknown = try await harness.client.notificationHistory(
      NotificationHistoryRequest(startDate: start, endDate: now, transactionId: "2000000000999999"),
      environment: .production)
    #expect(unknown.items.isEmpty && !unknown.hasMore)
  }

  @Test("filters by type and subtype, and onlyFailures")
  func filters() async throws {
    let harness = try start { $0.notificationFailureRate = 0.3 }
    defer { harness.stop() }
    let now = harness.now
    let start = now.adding(milliseconds: -180 * Self.day)
    let expirations = try await walk(
      harness,
      NotificationHistoryRequest(startDate: start, endDate: now, notificationType: .expired))
    #expect(!expirations.isEmpty)
    #expect(expirations.allSatisfy { $0.notification.payload.notificationType == .expired })
    let voluntary = try await walk(
      harness,
      NotificationHistoryRequest(
        startDate: start, endDate: now, notificationType: .expired, notificationSubtype: .voluntary)
    )
    #expect(!voluntary.isEmpty && voluntary.count < expirations.count)
    #expect(voluntary.allSatisfy { $0.notification.payload.subtype == .voluntary })

    let recent = now.adding(milliseconds: -30 * Self.day)
    let failures = try await walk(
      harness, NotificationHistoryRequest(startDate: recent, endDate: now, onlyFailures: true))
    #expect(!failures.isEmpty)
    #expect(failures.allSatisfy { !$0.sendAttempts.contains { $0.sendAttemptResult == .success } })
    let all = try await walk(harness, NotificationHistoryRequest(startDate: recent, endDate: now))
    #expect(failures.count < all.count)
    #expect(
      Set(failures.compactMap(\.notification.payload.notificationUUID)).isSubset(
        of: Set(all.compactMap(\.notification.payload.notificationUUID))))
  }

  @Test("the start must lie within 180 days (production) or 30 days (sandbox) of now")
  func window() async throws {
    let harness = try start()
    defer { harness.stop() }
    let now = harness.now
    for (environment, days, allowed) in [
      (AppStoreEnvironment.production, Int64(180), true), (.production, 181, false),
      (.sandbox, 30, true), (.sandbox, 31, false),
    ] {
      let request = NotificationHistoryRequest(
        startDate: now.adding(milliseconds: -days * Self.day), endDate: now)
      if allowed {
        _ = try await harness.client.notificationHistory(request, environment: environment)
      } else {
        await #expect {
          _ = try await harness.client.notificationHistory(request, environment: environment)
        } throws: { ($0 as? AppStoreAPIError)?.code == 4_000_012 }
      }
    }
  }

  @Test("invalid requests have Apple's codes")
  func invalidRequests() async throws {
    let harness = try start()
    defer { harness.stop() }
    let now = harness.now.millisecondsSince1970
    let start = now - 10 * Self.day
    let cases: [(String, Int64)] = [
      (
        #"{"startDate":\#(start),"endDate":\#(now),"transactionId":"2000000000000001","notificationType":"REFUND"}"#,
        4_000_019
      ),
      (#"{"startDate":\#(now),"endDate":\#(now)}"#, 4_000_013),
      (#"{"startDate":\#(start),"endDate":\#(now),"notificationSubtype":"UPGRADE"}"#, 4_000_018),
      (#"{"startDate":\#(start),"endDate":\#(now),"notificationType":"NOPE"}"#, 4_000_018),
      (#"{"endDate":\#(now)}"#, 4_000_015),
      (#"{"startDate":\#(start)}"#, 4_000_016),
      (#"{"startDate":\#(start),"endDate":\#(now),"transactionId":"12ab"}"#, 4_000_006),
      ("[1]", 4_000_000),
    ]
    for (body, code) in cases {
      let answer = try await harness.raw("POST", "/inApps/v1/notifications/history", body: body)
      #expect(SimulatorHarness.errorCode(of: answer) == code, "\(body)")
      #expect(answer.status == 400)
    }
  }

  @Test("a pagination token is refused with another body, or when it is not one")
  func paginationTokens() async throws {
    let harness = try start()
    defer { harness.stop() }
    let now = harness.now
    let request = NotificationHistoryRequest(
      startDate: now.adding(milliseconds: -90 * Self.day), endDate: now)
    let first = try await harness.client.notificationHistory(request, environment: .production)
    let token = try #require(first.paginationToken)
    var other = request
    other.onlyFailures = true
    for (body, token) in [(other, token), (request, "garbage"), (request, token + "x")] {
      await #expect {
        _ = try await harness.client.notificationHistory(
          body, paginationToken: token, environment: .production)
      } throws: { ($0 as? AppStoreAPIError)?.code == 4_000_014 }
    }
    let second = try await harness.client.notificationHistory(
      request, paginationToken: token, environment: .production)
    let firstIds = Set(first.items.compactMap(\.notification.payload.notificationUUID))
    #expect(
      second.items.allSatisfy { !firstIds.contains($0.notification.payload.notificationUUID ?? "") }
    )
  }
}
