import AppStoreServerAPI
import Chronology
import CryptoSupport
import Foundation
import JSON
import Testing

@Suite("Client: requests, endpoints and decoding")
struct ClientRequestTests {
  @Test("a history request carries every filter, the token and Apple's headers")
  func historyRequest() async throws {
    let transaction = try ClientHarness.sign(Sample.transaction())
    let harness = try ClientHarness(
      transport: ScriptedTransport(responses: [
        Answer.history([transaction], revision: "r1", hasMore: false)
      ]))
    let query = HistoryQuery(
      startDate: Timestamp(millisecondsSince1970: 1_700_000_000_000),
      endDate: Timestamp(millisecondsSince1970: 1_800_000_000_000),
      productIds: ["com.example.a", "com.example.b"], productTypes: [.autoRenewable, .consumable],
      subscriptionGroupIdentifiers: ["g1"], inAppOwnershipType: .familyShared, revoked: false,
      sort: .descending)
    let page = try await harness.client.transactionHistory(
      "2000000123456789", query: query, environment: .production)
    #expect(page.revision == "r1")
    #expect(page.hasMore == false)
    #expect(page.transactions.map(\.jws) == [transaction])
    #expect(page.transactions.first?.payload == Sample.transaction())

    let request = try #require(harness.transport.requests.first)
    #expect(request.method == "GET")
    #expect(request.url.path == "/prod/inApps/v2/history/2000000123456789")
    #expect(
      queryItems(request) == [
        "startDate=1700000000000", "endDate=1800000000000", "productId=com.example.a",
        "productId=com.example.b", "productType=AUTO_RENEWABLE", "productType=CONSUMABLE",
        "subscriptionGroupIdentifier=g1", "inAppOwnershipType=FAMILY_SHARED", "revoked=false",
        "sort=DESCENDING",
      ])
    #expect(request.headers["Accept"] == "application/json")
    #expect(request.headers["User-Agent"]?.hasPrefix("receipt-migrate/") == true)
    let authorization = try #require(request.headers["Authorization"])
    #expect(authorization.hasPrefix("Bearer "))
    let claims = try decodeSegment(authorization.dropFirst(7).split(separator: ".")[1])
    #expect(claims["bid"] as? String == TestChain.bundleId)
  }

  @Test("ids are percent-encoded so they cannot change the URL's shape")
  func pathEncoding() async throws {
    let harness = try ClientHarness(
      transport: ScriptedTransport(responses: [Answer.error(400, code: 4_000_006)]))
    _ = try await requireAPIError {
      _ = try await harness.client.transactionInfo("1/../x?y", environment: .sandbox)
    }
    let request = try #require(harness.transport.requests.first)
    #expect(
      request.url.absoluteString
        == "http://127.0.0.1:9/sandbox/inApps/v1/transactions/1%2F..%2Fx%3Fy")
  }

  @Test("statuses send the status filter repeated and decode groups with verified values")
  func statuses() async throws {
    let transaction = try ClientHarness.sign(Sample.transaction())
    let renewal = try JWSSigner(chain: TestChain.standard).sign(Sample.renewalInfo())
    let harness = try ClientHarness(
      transport: ScriptedTransport(responses: [
        Answer.json { writer in
          writer.beginObject()
          writer.field("environment", "Production")
          writer.field("bundleId", TestChain.bundleId)
          writer.field("appAppleId", TestChain.appAppleId)
          writer.key("data")
          writer.beginArray()
          writer.beginObject()
          writer.field("subscriptionGroupIdentifier", "21000001")
          writer.key("lastTransactions")
          writer.beginArray()
          for status: Int64 in [1, 4] {
            writer.beginObject()
            writer.field("status", status)
            writer.field("originalTransactionId", "2000000000000001")
            writer.field("signedTransactionInfo", transaction)
            writer.field("signedRenewalInfo", renewal)
            writer.endObject()
          }
          writer.endArray()
          writer.endObject()
          writer.endArray()
          writer.endObject()
        }
      ]))
    let answer = try await harness.client.allSubscriptionStatuses(
      "2000000000000001", statuses: [.active, .billingGracePeriod], environment: .production)
    #expect(queryItems(try #require(harness.transport.requests.first)) == ["status=1", "status=4"])
    let group = try #require(answer.groups.first)
    #expect(group.subscriptionGroupIdentifier == "21000001")
    #expect(group.lastTransactions.map(\.status) == [.active, .billingGracePeriod])
    #expect(group.lastTransactions.first?.renewalInfo.payload == Sample.renewalInfo())
    #expect(group.lastTransactions.first?.transaction.jws == transaction)
  }

  @Test("the smaller endpoints call the documented paths and decode their answers")
  func otherEndpoints() async throws {
    let signer = JWSSigner(chain: TestChain.standard)
    let transaction = try ClientHarness.sign(Sample.transaction())
    let app = try signer.sign(Sample.appTransaction())
    let notification = try signer.sign(
      NotificationPayload(
        notificationType: .test, notificationUUID: "n", signedDate: Instant.signed,
        data: NotificationData(
          appAppleId: TestChain.appAppleId, bundleId: TestChain.bundleId,
          environment: .production)))
    let harness = try ClientHarness(
      transport: ScriptedTransport(responses: [
        Answer.json {
          $0.beginObject()
          $0.field("signedTransactionInfo", transaction)
          $0.endObject()
        },
        Answer.json {
          $0.beginObject()
          $0.stringArray("signedTransactions", [transaction])
          $0.field("revision", "rr")
          $0.field("hasMore", false)
          $0.endObject()
        },
        Answer.json {
          $0.beginObject()
          $0.field("status", Int64(0))
          $0.stringArray("signedTransactions", [transaction])
          $0.endObject()
        },
        Answer.json {
          $0.beginObject()
          $0.field("signedAppTransactionInfo", app)
          $0.endObject()
        },
        Answer.error(404, code: 4_040_019),
        Answer.json {
          $0.beginObject()
          $0.field("paginationToken", "p2")
          $0.field("hasMore", true)
          $0.key("notificationHistory")
          $0.beginArray()
          $0.beginObject()
          $0.field("signedPayload", notification)
          $0.key("sendAttempts")
          $0.beginArray()
          $0.beginObject()
          $0.field("attemptDate", Int64(1_706_000_000_000))
          $0.field("sendAttemptResult", "TIMED_OUT")
          $0.endObject()
          $0.endArray()
          $0.endObject()
          $0.endArray()
          $0.endObject()
        },
        .success(HTTPResponse(status: 200)),
      ]))
    let client = harness.client
    let info = try await client.transactionInfo("2000000123456789", environment: .production)
    #expect(info.payload == Sample.transaction())
    let refunds = try await client.refundHistory("1", revision: "r0", environment: .production)
    #expect(refunds.revision == "rr")
    #expect(refunds.transactions.count == 1)
    let order = try await client.lookUpOrderId("MQ6ZC5R3MW")
    #expect(order.status == .valid)
    let appTransaction = try await client.appTransactionInfo("1", environment: .production)
    #expect(appTransaction?.payload.appTransactionId == "704289572311811111")
    let none = try await client.appTransactionInfo("2", environment: .production)
    #expect(none == nil)
    let request = NotificationHistoryRequest(
      startDate: Timestamp(millisecondsSince1970: 1_700_000_000_000),
      endDate: Timestamp(millisecondsSince1970: 1_700_100_000_000), notificationType: .refund,
      onlyFailures: true)
    let history = try await client.notificationHistory(
      request, paginationToken: "p1", environment: .production)
    #expect(history.paginationToken == "p2")
    #expect(history.items.first?.notification.payload.notificationType == .test)
    #expect(history.items.first?.sendAttempts.first?.sendAttemptResult == .timedOut)
    try await client.setAppAccountToken(
      "7e3fb20b-4cdb-47cc-936d-99d65f608138", forOriginalTransactionId: "2000000000000001",
      environment: .sandbox)

    let requests = harness.transport.requests
    #expect(
      requests.map { "\($0.method) \($0.url.path)" } == [
        "GET /prod/inApps/v1/transactions/2000000123456789",
        "GET /prod/inApps/v2/refund/lookup/1",
        "GET /prod/inApps/v1/lookup/MQ6ZC5R3MW",
        "GET /prod/inApps/v1/transactions/appTransactions/1",
        "GET /prod/inApps/v1/transactions/appTransactions/2",
        "POST /prod/inApps/v1/notifications/history",
        "PUT /sandbox/inApps/v1/transactions/2000000000000001/appAccountToken",
      ])
    #expect(queryItems(requests[1]) == ["revision=r0"])
    #expect(queryItems(requests[5]) == ["paginationToken=p1"])
    #expect(
      String(decoding: requests[5].body ?? [], as: UTF8.self)
        == #"{"startDate":1700000000000,"endDate":1700100000000,"notificationType":"REFUND","onlyFailures":true}"#
    )
    #expect(requests[5].headers["Content-Type"] == "application/json")
    #expect(
      String(decoding: requests[6].body ?? [], as: UTF8.self)
        == #"{"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#)
  }

  @Test("a response whose signed data fails verification is rejected, counted, never retried")
  func verificationFailureInResponse() async throws {
    let untrusted = TestChain.make()
    let forged = try JWSSigner(chain: untrusted).sign(Sample.transaction())
    let harness = try ClientHarness(
      transport: ScriptedTransport(responses: [
        Answer.history([forged], revision: "r", hasMore: false)
      ]))
    let error = try await requireAPIError {
      _ = try await harness.client.transactionHistory("1", environment: .production)
    }
    guard case .verificationFailed(let failure) = error.kind else {
      Issue.record("expected a verification failure, got \(error)")
      return
    }
    #expect(failure.reason == .untrustedChain)
    #expect(!error.isRetryable)
    #expect(harness.transport.requests.count == 1)
    #expect(harness.client.counters.snapshot()[.transactionHistory].verificationFailures == 1)
  }

  @Test("a successful answer that is not the endpoint's JSON is a malformed response")
  func malformedSuccess() async throws {
    let harness = try ClientHarness(
      transport: ScriptedTransport(responses: [
        Answer.text(200, "<html>hello</html>", type: "text/html")
      ]))
    let error = try await requireAPIError {
      _ = try await harness.client.transactionInfo("1", environment: .production)
    }
    guard case .malformedResponse(200, _) = error.kind else {
      Issue.record("expected a malformed response, got \(error)")
      return
    }
    #expect(harness.transport.requests.count == 1)
  }
}
