import AppStoreServerAPI
import Chronology
import JSON
import Testing

@Suite("Payload models: decoding, encoding, raw values")
struct PayloadModelTests {
  @Test("a transaction with every member survives encode → decode")
  func transactionRoundTrip() throws {
    let transaction = Sample.transaction()
    let decoded = try JWSTransaction.decode(json: transaction.jsonBytes())
    #expect(decoded == transaction)
  }

  @Test("renewal info, app transaction and notification survive encode → decode")
  func otherRoundTrips() throws {
    let renewal = Sample.renewalInfo()
    #expect(try JWSRenewalInfo.decode(json: renewal.jsonBytes()) == renewal)
    let app = Sample.appTransaction()
    #expect(try AppTransaction.decode(json: app.jsonBytes()) == app)
    let notification = NotificationPayload(
      notificationType: .didRenew, subtype: .billingRecovery, notificationUUID: "u-1",
      version: "2.0", signedDate: Instant.signed,
      data: NotificationData(
        appAppleId: 1, bundleId: "b", bundleVersion: "3", environment: .sandbox,
        signedTransactionInfo: "a.b.c", signedRenewalInfo: "d.e.f", status: .active),
      summary: NotificationSummary(
        requestIdentifier: "r", environment: .sandbox, appAppleId: 1, bundleId: "b",
        productId: "p", storefrontCountryCodes: ["USA", "FRA"], failedCount: 2,
        succeededCount: 3))
    #expect(try NotificationPayload.decode(json: notification.jsonBytes()) == notification)
  }

  @Test("a payload as Apple writes it decodes into typed members")
  func decodesAppleShape() throws {
    let json = """
      {"transactionId":"2000000123456789","originalTransactionId":"2000000000000001",
       "bundleId":"com.example.app","productId":"p","purchaseDate":1706000000000,
       "quantity":1,"type":"Non-Consumable","inAppOwnershipType":"FAMILY_SHARED",
       "signedDate":1706000000123,"environment":"Sandbox","transactionReason":"PURCHASE",
       "storefront":"USA","storefrontId":"143441","price":1990,"currency":"USD",
       "offerType":1,"revocationReason":0,"isUpgraded":true,
       "futureField":{"nested":[1,2,{"x":null}]},"anotherNewOne":"ignored"}
      """
    let transaction = try JWSTransaction.decode(json: Array(json.utf8))
    #expect(transaction.transactionId == "2000000123456789")
    #expect(transaction.type == .nonConsumable)
    #expect(transaction.inAppOwnershipType == .familyShared)
    #expect(transaction.environment == .sandbox)
    #expect(transaction.offerType == .introductory)
    #expect(transaction.revocationReason == .other)
    #expect(transaction.isUpgraded == true)
    #expect(transaction.price == 1_990)
    #expect(transaction.signedDate == Timestamp(millisecondsSince1970: 1_706_000_000_123))
    #expect(transaction.expiresDate == nil)
  }

  @Test(
    "enumerated values Apple may add later survive a round trip",
    arguments: [
      (#"{"type":"Subscription Bundle"}"#, #""type":"Subscription Bundle""#),
      (#"{"inAppOwnershipType":"LOANED"}"#, #""inAppOwnershipType":"LOANED""#),
      (#"{"offerType":7}"#, #""offerType":7"#),
      (#"{"environment":"Xcode"}"#, #""environment":"Xcode""#),
      (#"{"environment":"Staging"}"#, #""environment":"Staging""#),
      (#"{"revocationType":"REFUND_PARTIAL_NEW"}"#, #""revocationType":"REFUND_PARTIAL_NEW""#),
    ])
  func unknownValuesSurvive(input: String, member: String) throws {
    let decoded = try JWSTransaction.decode(json: Array(input.utf8))
    let encoded = String(decoding: decoded.jsonBytes(), as: UTF8.self)
    #expect(encoded.contains(member))
  }

  @Test("unknown raw values are typed as unknown, known ones are not")
  func rawValueTyping() {
    #expect(TransactionType(rawValue: "Consumable") == .consumable)
    #expect(TransactionType(rawValue: "Bundle") == .unknown("Bundle"))
    #expect(OfferType(rawValue: 9).rawValue == 9)
    #expect(SubscriptionStatus(rawValue: 4).isEntitled)
    #expect(!SubscriptionStatus(rawValue: 3).isEntitled)
    #expect(AppStoreEnvironment(rawValue: "LocalTesting") == .localTesting)
    #expect(AppStoreEnvironment.named("SANDBOX") == .sandbox)
    #expect(AppStoreEnvironment.named("staging") == nil)
  }

  @Test("ids given as numbers, nulls and absent members decode without loss")
  func lenientScalars() throws {
    let json = #"{"transactionId":2000000123456789,"expiresDate":null,"quantity":"2"}"#
    let transaction = try JWSTransaction.decode(json: Array(json.utf8))
    #expect(transaction.transactionId == "2000000123456789")
    #expect(transaction.expiresDate == nil)
    #expect(transaction.quantity == 2)
  }

  @Test(
    "structurally wrong payloads are errors, not silent defaults",
    arguments: [
      #"{"transactionId":{"a":1}}"#, #"{"purchaseDate":"soon"}"#, #"["not","an","object"]"#,
      #"{"quantity":1.5}"#, #"{"transactionId":"1"} trailing"#,
    ])
  func wrongShapes(json: String) {
    #expect(throws: JSONError.self) { try JWSTransaction.decode(json: Array(json.utf8)) }
  }
}
