import AppStoreServerAPI
import Chronology
import CryptoSupport
import JSON
import Testing

/// The members and values Apple's current Python library (3.1.2) and Swift library model, in
/// payloads written as Apple documents them. Checked against this project's reading of Apple's
/// models; the conformance test checks the simulator's payloads with Apple's own code.
@Suite("Payload models follow Apple's current libraries")
struct CurrentModelTests {
  @Test("ONE_TIME offers, billing plans and commitment plans are typed, and survive a round trip")
  func transactionAndRenewalMembers() throws {
    let transactionJSON = """
      {"transactionId":"2000000123456789","bundleId":"com.example.app","offerDiscountType":"ONE_TIME",
       "billingPlanType":"MONTHLY","commitmentInfo":{"billingPeriodNumber":2,
       "commitmentExpiresDate":1706000000000,"commitmentPrice":99990,"totalBillingPeriods":12},
       "environment":"Production","signedDate":1706000000123}
      """
    let transaction = try JWSTransaction.decode(json: Array(transactionJSON.utf8))
    #expect(transaction.offerDiscountType == .oneTime)
    #expect(transaction.billingPlanType == .monthly)
    #expect(transaction.commitmentInfo?.billingPeriodNumber == 2)
    #expect(transaction.commitmentInfo?.totalBillingPeriods == 12)
    #expect(transaction.commitmentInfo?.commitmentPrice == 99_990)
    #expect(try JWSTransaction.decode(json: transaction.jsonBytes()) == transaction)

    let renewalJSON = """
      {"originalTransactionId":"2000000000000001","renewalBillingPlanType":"BILLED_UPFRONT",
       "commitmentInfo":{"commitmentAutoRenewProductId":"p.yearly","commitmentAutoRenewStatus":1,
       "commitmentRenewalBillingPlanType":"SOMETHING_NEW","commitmentRenewalDate":1706000000000,
       "commitmentRenewalPrice":99990},"environment":"Production","signedDate":1706000000123}
      """
    let renewal = try JWSRenewalInfo.decode(json: Array(renewalJSON.utf8))
    #expect(renewal.renewalBillingPlanType == .billedUpFront)
    #expect(renewal.commitmentInfo?.commitmentAutoRenewStatus == .on)
    #expect(renewal.commitmentInfo?.commitmentRenewalBillingPlanType == .unknown("SOMETHING_NEW"))
    #expect(try JWSRenewalInfo.decode(json: renewal.jsonBytes()) == renewal)
  }

  @Test(
    "the notification types RESCIND_CONSENT, METADATA_UPDATE, MIGRATION, PRICE_CHANGE and the members appData, externalPurchaseToken are typed"
  )
  func notificationMembers() throws {
    for (raw, typed) in [
      ("RESCIND_CONSENT", NotificationType.rescindConsent),
      ("METADATA_UPDATE", .metadataUpdate), ("MIGRATION", .migration),
      ("PRICE_CHANGE", .priceChange),
    ] {
      #expect(NotificationType(rawValue: raw) == typed)
      #expect(typed.rawValue == raw)
    }
    let rescind = """
      {"notificationType":"RESCIND_CONSENT","notificationUUID":"u","signedDate":1706000000123,
       "appData":{"appAppleId":1234,"bundleId":"com.example.app","environment":"Sandbox",
       "signedAppTransactionInfo":"a.b.c"}}
      """
    let payload = try NotificationPayload.decode(json: Array(rescind.utf8))
    #expect(payload.appData?.signedAppTransactionInfo == "a.b.c")
    #expect(
      payload.app
        == NotificationApp(bundleId: "com.example.app", appAppleId: 1234, environment: .sandbox))
    #expect(try NotificationPayload.decode(json: payload.jsonBytes()) == payload)

    let token = """
      {"notificationType":"EXTERNAL_PURCHASE_TOKEN","subtype":"UNREPORTED","signedDate":1706000000123,
       "externalPurchaseToken":{"externalPurchaseId":"SANDBOX_b2158121-7af9-49d4-9561-1f588205523e",
       "tokenCreationDate":1698148900000,"appAppleId":55555,"bundleId":"com.example.app"}}
      """
    let external = try NotificationPayload.decode(json: Array(token.utf8))
    #expect(
      external.externalPurchaseToken?.tokenCreationDate?.millisecondsSince1970 == 1_698_148_900_000)
    #expect(
      external.app.environment == .sandbox, "a SANDBOX token id is sandbox, as Apple reads it")
    var production = external
    production.externalPurchaseToken?.externalPurchaseId = "b2158121-7af9-49d4-9561-1f588205523e"
    #expect(production.app.environment == .production)
  }

  @Test("a CONSUMPTION_REQUEST's reason is typed; an unknown one survives")
  func consumptionRequestReason() throws {
    let json = #"{"bundleId":"com.example.app","consumptionRequestReason":"UNINTENDED_PURCHASE"}"#
    #expect(
      try NotificationData.decode(json: Array(json.utf8)).consumptionRequestReason
        == .unintendedPurchase)
    let later = #"{"consumptionRequestReason":"A_NEW_REASON"}"#
    let data = try NotificationData.decode(json: Array(later.utf8))
    #expect(data.consumptionRequestReason == .unknown("A_NEW_REASON"))
    #expect(try NotificationData.decode(json: data.jsonBytes()) == data)
  }

  @Test("a notification about the app verifies by its appData, in the order Apple checks")
  func verifiesByAppData() throws {
    let payload = NotificationPayload(
      notificationType: .rescindConsent, notificationUUID: "u", signedDate: Instant.signed,
      appData: NotificationAppData(
        appAppleId: TestChain.appAppleId, bundleId: TestChain.bundleId, environment: .sandbox))
    let jws = try JWSSigner(chain: TestChain.standard).sign(payload)
    let sandbox = try TestChain.verifier(environment: .sandbox)
    #expect(try sandbox.verifyNotification(jws).payload.notificationType == .rescindConsent)
    // Another app Apple id and another environment: Apple reports the app first.
    let production = try TestChain.verifier(environment: .production, appAppleId: 1)
    do {
      _ = try production.verifyNotification(jws)
      Issue.record("a notification for another app verified")
    } catch {
      #expect(error.reason == .appAppleIdMismatch)
    }
  }
}
