import Chronology
import LegacyReceipts
import Testing

/// One test per rule of "The reference old entitlement logic", and one per bug of "Bugs that
/// real legacy systems have" showing the reference logic does not have it.
@Suite("OldEntitlementLogic")
struct OldEntitlementLogicTests {
  let now = sampleRequestDate
  let reference = OldEntitlementLogic()

  func at(_ offset: Int64) -> Timestamp { now.adding(milliseconds: offset) }

  /// A monthly subscription of `count` periods whose last period starts `lastStart` from now.
  func monthly(
    _ count: Int, lastStart: Int64, product: String = "premium.monthly", original: String = "100",
    firstId: Int = 101
  ) -> [[String: String]] {
    (0..<count).map { index in
      let start = at(lastStart - days(30) * Int64(count - 1 - index))
      return ResponseBuilder.transaction(
        id: String(firstId + index), original: original, product: product, purchase: start,
        expires: start.adding(milliseconds: days(30)))
    }
  }

  // MARK: - Rule 3: subscriptions

  @Test("active when a transaction covers the instant, whatever the array order")
  func activeWhateverTheOrder() throws {
    var builder = ResponseBuilder()
    builder.latest = monthly(12, lastStart: -days(5)).shuffledDeterministically()
    builder.renewals = [["original_transaction_id": "100", "auto_renew_status": "1"]]
    let entitlement = try #require(reference.evaluate(try builder.response(), at: now).first)
    #expect(entitlement.key == .subscriptionGroup("G1"))
    #expect(entitlement.status == .active)
    #expect(entitlement.isEntitled)
    #expect(entitlement.expiresDate == at(days(25)))
    #expect(entitlement.transactionId == "112")
    #expect(entitlement.autoRenewStatus == true)
    #expect(entitlement.reason == "active until \(at(days(25)))")
  }

  @Test("evaluated at the receipt's own request date and at a later instant")
  func twoInstants() throws {
    var builder = ResponseBuilder()
    builder.latest = monthly(3, lastStart: -days(5))
    builder.renewals = [
      ["original_transaction_id": "100", "auto_renew_status": "0", "expiration_intent": "1"]
    ]
    let response = try builder.response()
    let captured = try #require(response.requestDate)
    let atCapture = try #require(reference.evaluate(response, at: captured).first)
    #expect(atCapture.status == .active)
    let later = try #require(reference.evaluate(response, at: at(days(40))).first)
    #expect(later.status == .expired)
    #expect(later.expirationIntent == .customerCancelled)
  }

  @Test("a refund revokes from the cancellation instant, not before")
  func refund() throws {
    var builder = ResponseBuilder()
    var transactions = monthly(2, lastStart: -days(10))
    transactions[1]["cancellation_date_ms"] = String(at(-days(2)).millisecondsSince1970)
    builder.latest = transactions
    let response = try builder.response()
    let revoked = try #require(reference.evaluate(response, at: now).first)
    #expect(revoked.status == .revoked)
    #expect(revoked.revocationDate == at(-days(2)))
    #expect(revoked.reason == "refunded on \(at(-days(2)))")
    #expect(try #require(reference.evaluate(response, at: at(-days(3))).first).status == .active)
  }

  @Test("a family member removed from Family Sharing is revoked as such")
  func familyRevocation() throws {
    var builder = ResponseBuilder()
    builder.latest = [
      ResponseBuilder.transaction(
        id: "201", original: "200", product: "premium.yearly", purchase: at(-days(100)),
        expires: at(days(265)), cancelled: at(-days(1)), ownership: "FAMILY_SHARED")
    ]
    let entitlement = try #require(reference.evaluate(try builder.response(), at: now).first)
    #expect(entitlement.status == .revoked)
    #expect(entitlement.ownership == .familyShared)
    #expect(entitlement.reason.hasPrefix("removed from Family Sharing"))
  }

  @Test("an upgrade within the group entitles to the new product, not the upgraded-from one")
  func upgrade() throws {
    var builder = ResponseBuilder()
    builder.latest = [
      ResponseBuilder.transaction(
        id: "301", original: "300", product: "basic.yearly", purchase: at(-days(100)),
        expires: at(days(265)),
        cancelled: at(-days(10)), upgraded: true),
      ResponseBuilder.transaction(
        id: "302", original: "300", product: "premium.monthly", purchase: at(-days(10)),
        expires: at(days(20))),
    ]
    let entitlement = try #require(reference.evaluate(try builder.response(), at: now).first)
    #expect(entitlement.status == .active)
    #expect(entitlement.productId == "premium.monthly")
  }

  @Test("an upgrade marked only with cancellation_date is an upgrade, not a refund")
  func upgradeMarkedAsCancellation() throws {
    var builder = ResponseBuilder()
    builder.latest = [
      ResponseBuilder.transaction(
        id: "401", original: "400", product: "basic.yearly", purchase: at(-days(100)),
        expires: at(days(265)),
        cancelled: at(-days(10))),
      ResponseBuilder.transaction(
        id: "402", original: "400", product: "premium.monthly",
        purchase: at(-days(10)).adding(milliseconds: 2000),
        expires: at(days(20))),
    ]
    builder.renewals = [
      ["original_transaction_id": "400", "auto_renew_status": "0", "expiration_intent": "1"]
    ]
    let response = try builder.response()
    #expect(
      try #require(reference.evaluate(response, at: now).first).productId == "premium.monthly")
    // After the new product lapses the subscription has expired: it was never refunded.
    let later = try #require(reference.evaluate(response, at: at(days(30))).first)
    #expect(later.status == .expired)
    #expect(later.productId == "premium.monthly")
  }

  @Test("in the billing grace period the customer keeps access")
  func gracePeriod() throws {
    var builder = ResponseBuilder()
    builder.latest = monthly(2, lastStart: -days(32))
    builder.renewals = [
      [
        "original_transaction_id": "100", "is_in_billing_retry_period": "1",
        "expiration_intent": "2",
        "grace_period_expires_date_ms": String(at(days(4)).millisecondsSince1970),
      ]
    ]
    let entitlement = try #require(reference.evaluate(try builder.response(), at: now).first)
    #expect(entitlement.status == .gracePeriod)
    #expect(entitlement.isEntitled)
    #expect(entitlement.gracePeriodExpiresDate == at(days(4)))
  }

  @Test("billing retry without grace is not entitled, even with auto_renew_status 1")
  func billingRetry() throws {
    var builder = ResponseBuilder()
    builder.latest = monthly(2, lastStart: -days(40))
    builder.renewals = [
      [
        "original_transaction_id": "100", "is_in_billing_retry_period": "1",
        "auto_renew_status": "1", "expiration_intent": "2",
      ]
    ]
    let entitlement = try #require(reference.evaluate(try builder.response(), at: now).first)
    #expect(entitlement.status == .billingRetry)
    #expect(!entitlement.isEntitled)
  }

  @Test("expired, with each expiration intent", arguments: 1...5)
  func expiredWithIntent(intent: Int64) throws {
    var builder = ResponseBuilder()
    builder.latest = monthly(2, lastStart: -days(45))
    builder.renewals = [
      [
        "original_transaction_id": "100", "auto_renew_status": "0",
        "is_in_billing_retry_period": "0", "expiration_intent": String(intent),
      ]
    ]
    let entitlement = try #require(reference.evaluate(try builder.response(), at: now).first)
    #expect(entitlement.status == .expired)
    #expect(entitlement.expirationIntent == ExpirationIntent(rawValue: intent))
    #expect(entitlement.reason.hasSuffix("(\(ExpirationIntent(rawValue: intent)))"))
  }

  @Test("in_app entries borrow the group of their latest_receipt_info siblings")
  func groupFromSiblings() throws {
    var builder = ResponseBuilder()
    let transactions = monthly(3, lastStart: -days(5))
    builder.latest = [transactions[2]]
    builder.inApp = transactions.map {
      var copy = $0
      copy["subscription_group_identifier"] = nil
      return copy
    }
    let entitlements = reference.evaluate(try builder.response(), at: now)
    #expect(entitlements.map(\.key) == [.subscriptionGroup("G1")])
  }

  @Test("without any group the original transaction stands in for it")
  func groupFallback() throws {
    var builder = ResponseBuilder()
    builder.inApp = monthly(1, lastStart: -days(5)).map {
      var copy = $0
      copy["subscription_group_identifier"] = nil
      return copy
    }
    #expect(
      reference.evaluate(try builder.response(), at: now).map(\.key) == [
        .subscriptionGroup("original:100")
      ])
  }

  // MARK: - Rule 4: one-time purchases

  @Test(
    "a non-consumable is owned unless every purchase of it was refunded; restores count by product")
  func nonConsumables() throws {
    var builder = ResponseBuilder()
    builder.inApp = [
      ResponseBuilder.transaction(
        id: "501", original: "501", product: "lifetime", group: nil, purchase: at(-days(300)),
        expires: nil),
      ResponseBuilder.transaction(
        id: "502", original: "502", product: "lifetime", group: nil, purchase: at(-days(10)),
        expires: nil,
        cancelled: at(-days(9))),
      ResponseBuilder.transaction(
        id: "601", original: "601", product: "brushes", group: nil, purchase: at(-days(200)),
        expires: nil,
        cancelled: at(-days(190))),
    ]
    let entitlements = reference.evaluate(try builder.response(), at: now)
    #expect(entitlements.map(\.key) == [.product("brushes"), .product("lifetime")])
    #expect(entitlements.map(\.status) == [.revoked, .active])
    #expect(entitlements[1].transactionId == "501")
    #expect(entitlements[0].revocationDate == at(-days(190)))
  }

  @Test("with a catalogue, consumables are not entitlements and non-renewing ones are one-time")
  func catalogue() throws {
    let catalog = try ProductCatalog(
      csv: "product_id,type,group\ncoins,consumable,\npass,non_renewing,\n")
    var builder = ResponseBuilder()
    builder.inApp = [
      ResponseBuilder.transaction(
        id: "701", original: "701", product: "coins", group: nil, purchase: at(-days(3)),
        expires: nil),
      ResponseBuilder.transaction(
        id: "702", original: "702", product: "pass", group: nil, purchase: at(-days(3)),
        expires: nil),
    ]
    let entitlements = OldEntitlementLogic(catalog: catalog).evaluate(
      try builder.response(), at: now)
    #expect(entitlements.map(\.key) == [.product("pass")])
    #expect(entitlements.first?.kind == .nonRenewing)
  }

  @Test("an error status or an empty in_app yields no entitlements")
  func nothingToEvaluate() throws {
    #expect(reference.evaluate(try decodeResponse(#"{"status": 21010}"#).response, at: now).isEmpty)
    #expect(reference.evaluate(try ResponseBuilder().response(), at: now).isEmpty)
  }

  @Test("the iOS 6 layout is evaluated like any other")
  func iOS6() throws {
    let response = try decodeResponse(
      """
      {"status": 21006, "receipt": {"bid": "b", "product_id": "p", "transaction_id": "11", "original_transaction_id": "10",
        "purchase_date_ms": "\(at(-days(70)).millisecondsSince1970)", "expires_date": "\(at(-days(40)).millisecondsSince1970)"},
       "latest_receipt_info": {"product_id": "p", "transaction_id": "12", "original_transaction_id": "10",
        "purchase_date_ms": "\(at(-days(40)).millisecondsSince1970)", "expires_date": "\(at(-days(10)).millisecondsSince1970)"},
       "expiration_intent": "1", "auto_renew_status": "0"}
      """
    ).response
    let entitlement = try #require(reference.evaluate(response, at: now).first)
    #expect(entitlement.status == .expired)
    #expect(entitlement.transactionId == "12")
    #expect(entitlement.expirationIntent == .customerCancelled)
    #expect(try #require(reference.evaluate(response, at: at(-days(20))).first).status == .active)
  }

  // MARK: - Bugs real legacy systems have

  @Test("taking the last array element misreads the current subscription; the reference does not")
  func lastArrayElement() throws {
    var builder = ResponseBuilder()
    // Newest first, as Apple has sent them since 2020.
    builder.latest = monthly(3, lastStart: -days(5)).reversed()
    builder.renewals = [["original_transaction_id": "100", "expiration_intent": "1"]]
    let response = try builder.response()
    #expect(try #require(reference.evaluate(response, at: now).first).status == .active)
    let flawed = OldEntitlementLogic(flaws: [.takesLastArrayElement])
    #expect(try #require(flawed.evaluate(response, at: now).first).status == .expired)
  }

  @Test("reading in_app instead of latest_receipt_info misses renewals; the reference does not")
  func staleInApp() throws {
    var builder = ResponseBuilder()
    let transactions = monthly(3, lastStart: -days(5))
    builder.latest = transactions
    builder.inApp = Array(transactions.prefix(2))
    let response = try builder.response()
    #expect(try #require(reference.evaluate(response, at: now).first).status == .active)
    let flawed = OldEntitlementLogic(flaws: [.readsInAppInsteadOfLatest])
    #expect(try #require(flawed.evaluate(response, at: now).first).status == .expired)
  }

  @Test("ignoring cancellation_date keeps refunded customers entitled; the reference does not")
  func ignoredCancellation() throws {
    var builder = ResponseBuilder()
    var transactions = monthly(1, lastStart: -days(5))
    transactions[0]["cancellation_date_ms"] = String(at(-days(1)).millisecondsSince1970)
    builder.latest = transactions
    let response = try builder.response()
    #expect(try #require(reference.evaluate(response, at: now).first).status == .revoked)
    let flawed = OldEntitlementLogic(flaws: [.ignoresCancellation])
    #expect(try #require(flawed.evaluate(response, at: now).first).status == .active)
  }

  @Test("without grace support paying customers are locked out; the reference keeps them in")
  func noGrace() throws {
    var builder = ResponseBuilder()
    builder.latest = monthly(1, lastStart: -days(31))
    builder.renewals = [
      [
        "original_transaction_id": "100", "is_in_billing_retry_period": "1",
        "grace_period_expires_date_ms": String(at(days(3)).millisecondsSince1970),
      ]
    ]
    let response = try builder.response()
    #expect(try #require(reference.evaluate(response, at: now).first).status == .gracePeriod)
    let flawed = OldEntitlementLogic(flaws: [.noGracePeriod])
    #expect(try #require(flawed.evaluate(response, at: now).first).status == .billingRetry)
  }

  @Test("auto_renew_status 1 is not an entitlement during billing retry; flawed code says it is")
  func autoRenewDuringRetry() throws {
    var builder = ResponseBuilder()
    builder.latest = monthly(1, lastStart: -days(40))
    builder.renewals = [
      [
        "original_transaction_id": "100", "is_in_billing_retry_period": "1",
        "auto_renew_status": "1",
      ]
    ]
    let response = try builder.response()
    #expect(try #require(reference.evaluate(response, at: now).first).status == .billingRetry)
    let flawed = OldEntitlementLogic(flaws: [.autoRenewMeansEntitled])
    #expect(try #require(flawed.evaluate(response, at: now).first).status == .active)
  }

  @Test("a missing expiration_intent does not mean active; flawed code says it does")
  func missingIntent() throws {
    var builder = ResponseBuilder()
    builder.latest = monthly(1, lastStart: -days(40))
    let response = try builder.response()
    #expect(try #require(reference.evaluate(response, at: now).first).status == .expired)
    let flawed = OldEntitlementLogic(flaws: [.missingIntentMeansActive])
    #expect(try #require(flawed.evaluate(response, at: now).first).status == .active)
  }

  @Test("the iOS 6 object layout is understood; flawed code sees only the receipt transaction")
  func iOS6Mishandled() throws {
    let response = try decodeResponse(
      """
      {"status": 0, "receipt": {"bid": "b", "product_id": "p", "transaction_id": "11", "original_transaction_id": "10",
        "purchase_date_ms": "\(at(-days(40)).millisecondsSince1970)", "expires_date": "\(at(-days(10)).millisecondsSince1970)"},
       "latest_receipt_info": {"product_id": "p", "transaction_id": "12", "original_transaction_id": "10",
        "purchase_date_ms": "\(at(-days(10)).millisecondsSince1970)", "expires_date": "\(at(days(20)).millisecondsSince1970)"}}
      """
    ).response
    #expect(try #require(reference.evaluate(response, at: now).first).status == .active)
    let flawed = OldEntitlementLogic(flaws: [.mishandlesIOS6Shape, .missingIntentMeansActive])
    let flawedResult = try #require(
      OldEntitlementLogic(flaws: [.mishandlesIOS6Shape]).evaluate(response, at: now).first)
    #expect(flawedResult.status == .expired)
    #expect(flawed.flaws.count == 2)
  }

  @Test("ids above 2^53 stay exact; flawed code corrupts them")
  func idPrecision() throws {
    var builder = ResponseBuilder()
    builder.latest = monthly(1, lastStart: -days(5), original: "9007199254740993", firstId: 1)
    let response = try builder.response()
    #expect(
      try #require(reference.evaluate(response, at: now).first).originalTransactionId
        == "9007199254740993")
    let flawed = OldEntitlementLogic(flaws: [.losesIdPrecision])
    #expect(
      try #require(flawed.evaluate(response, at: now).first).originalTransactionId
        == "9007199254740992")
  }

  @Test(
    "after an upgrade the new tier decides; code that keeps is_upgraded rows keeps the old tier")
  func upgradedRowsKept() throws {
    var builder = ResponseBuilder()
    builder.latest = [
      ResponseBuilder.transaction(
        id: "301", original: "300", product: "basic.yearly", purchase: at(-days(100)),
        expires: at(days(265)), cancelled: at(-days(10)), upgraded: true),
      ResponseBuilder.transaction(
        id: "302", original: "300", product: "premium.monthly", purchase: at(-days(10)),
        expires: at(days(20))),
    ]
    let response = try builder.response()
    #expect(
      try #require(reference.evaluate(response, at: now).first).productId == "premium.monthly")
    let flawed = try #require(
      OldEntitlementLogic(flaws: [.keepsUpgradedRows]).evaluate(response, at: now).first)
    #expect(flawed.status == .active)
    #expect(flawed.productId == "basic.yearly")
  }

  @Test(
    "every original transaction counts; code that keeps one stored id misses family and other purchases"
  )
  func oneStoredOriginalId() throws {
    var own = ResponseBuilder()
    own.latest =
      monthly(2, lastStart: -days(200), original: "100", firstId: 101)
      + monthly(1, lastStart: -days(5), product: "pro.monthly", original: "200", firstId: 201).map {
        var row = $0
        row["subscription_group_identifier"] = "G2"
        return row
      }
    own.inApp = [
      ResponseBuilder.transaction(
        id: "701", original: "700", product: "lifetime", group: nil, purchase: at(-days(50)),
        expires: nil, ownership: "FAMILY_SHARED")
    ]
    let response = try own.response()
    #expect(
      reference.evaluate(response, at: now).map(\.status) == [.expired, .active, .active])
    let flawed = OldEntitlementLogic(flaws: [.filtersByOneOriginalId])
    #expect(OldEntitlementLogic.storedOriginalTransactionId(in: [response]) == "100")
    let seen = flawed.evaluate(response, at: now)
    #expect(seen.map(\.key) == [.subscriptionGroup("G1")])
    #expect(seen.map(\.status) == [.expired])

    // A second Apple Account's response holds none of the stored id's rows.
    var second = ResponseBuilder()
    second.latest = monthly(1, lastStart: -days(3), original: "900", firstId: 901)
    let other = try second.response()
    let stored = OldEntitlementLogic.storedOriginalTransactionId(in: [response, other])
    #expect(stored == "100")
    #expect(flawed.evaluate(other, at: now, storedOriginalTransactionId: stored).isEmpty)
    #expect(reference.evaluate(other, at: now, storedOriginalTransactionId: stored).count == 1)
  }

  @Test("a refunded past renewal does not revoke a paid subscription; flawed code says it does")
  func anyCancellation() throws {
    var builder = ResponseBuilder()
    var transactions = monthly(3, lastStart: -days(5))
    transactions[0]["cancellation_date_ms"] = String(at(-days(55)).millisecondsSince1970)
    builder.latest = transactions
    let response = try builder.response()
    #expect(try #require(reference.evaluate(response, at: now).first).status == .active)
    let flawed = try #require(
      OldEntitlementLogic(flaws: [.anyCancellationRevokes]).evaluate(response, at: now).first)
    #expect(flawed.status == .revoked)
    #expect(flawed.revocationDate == at(-days(55)))
  }

  // MARK: - Bugs teams shipped

  @Test("auto-renew turned off still leaves the paid period; flawed code ends access at once")
  func autoRenewOff() throws {
    var builder = ResponseBuilder()
    builder.latest = monthly(2, lastStart: -days(5))
    builder.renewals = [["original_transaction_id": "100", "auto_renew_status": "0"]]
    let response = try builder.response()
    #expect(try #require(reference.evaluate(response, at: now).first).status == .active)
    let flawed = try #require(
      OldEntitlementLogic(flaws: [.autoRenewOffMeansExpired]).evaluate(response, at: now).first)
    #expect(flawed.status == .expired)
    #expect(flawed.reason == "treated as expired because auto_renew_status is 0")
  }

  @Test("a lapsed subscription ends at its expiry; flawed code adds a week of its own grace")
  func fixedGraceDays() throws {
    var builder = ResponseBuilder()
    builder.latest = monthly(2, lastStart: -days(33))
    builder.renewals = [
      ["original_transaction_id": "100", "auto_renew_status": "0", "expiration_intent": "1"]
    ]
    let response = try builder.response()
    #expect(try #require(reference.evaluate(response, at: now).first).status == .expired)
    let flawed = OldEntitlementLogic(flaws: [.addsFixedGraceDays])
    let inside = try #require(flawed.evaluate(response, at: now).first)
    #expect(inside.status == .active)
    // The expiry stays Apple's; only access runs on.
    #expect(inside.expiresDate == at(-days(3)))
    #expect(try #require(flawed.evaluate(response, at: at(days(5))).first).status == .expired)
  }

  @Test("a non-renewing pass runs out; flawed code owns it for ever")
  func nonRenewingForever() throws {
    let catalog = try ProductCatalog(
      csv: "product_id,type,group,duration\npass,non_renewing,,P30D\n")
    var builder = ResponseBuilder()
    builder.inApp = [
      ResponseBuilder.transaction(
        id: "702", original: "702", product: "pass", group: nil, purchase: at(-days(90)),
        expires: nil)
    ]
    let response = try builder.response()
    let expired = try #require(
      OldEntitlementLogic(catalog: catalog).evaluate(response, at: now).first)
    #expect(expired.status == .expired)
    let flawed = try #require(
      OldEntitlementLogic(flaws: [.nonRenewingOwnedForever], catalog: catalog).evaluate(
        response, at: now
      ).first)
    #expect(flawed.status == .active)
    #expect(flawed.expiresDate == nil)
  }

  @Test("a consumable in the receipt grants nothing; flawed code counts it as owned")
  func consumablesOwned() throws {
    let catalog = try ProductCatalog(csv: "product_id,type,group\ncoins,consumable,\n")
    var builder = ResponseBuilder()
    builder.inApp = [
      ResponseBuilder.transaction(
        id: "701", original: "701", product: "coins", group: nil, purchase: at(-days(1)),
        expires: nil)
    ]
    let response = try builder.response()
    #expect(OldEntitlementLogic(catalog: catalog).evaluate(response, at: now).isEmpty)
    let flawed = try #require(
      OldEntitlementLogic(flaws: [.consumablesCountAsOwned], catalog: catalog).evaluate(
        response, at: now
      ).first)
    #expect(flawed.key == .product("coins"))
    #expect(flawed.status == .active)
    #expect(flawed.kind == .consumable)
  }

  @Test("taking the first array element misreads an oldest-first array; the reference does not")
  func firstArrayElement() throws {
    var builder = ResponseBuilder()
    // Oldest first, as Apple's answers once listed them.
    builder.latest = monthly(3, lastStart: -days(5))
    builder.renewals = [["original_transaction_id": "100", "expiration_intent": "1"]]
    let response = try builder.response()
    #expect(try #require(reference.evaluate(response, at: now).first).status == .active)
    let flawed = OldEntitlementLogic(flaws: [.takesFirstArrayElement])
    #expect(try #require(flawed.evaluate(response, at: now).first).status == .expired)
  }

  @Test(
    "an expired subscription in a valid receipt grants nothing; flawed code reads status 0 as subscribed"
  )
  func statusZeroSubscribed() throws {
    var builder = ResponseBuilder()
    builder.latest = monthly(2, lastStart: -days(60))
    builder.renewals = [
      ["original_transaction_id": "100", "auto_renew_status": "0", "expiration_intent": "1"]
    ]
    let response = try builder.response()
    #expect(try #require(reference.evaluate(response, at: now).first).status == .expired)
    let flawed = try #require(
      OldEntitlementLogic(flaws: [.status0MeansSubscribed]).evaluate(response, at: now).first)
    #expect(flawed.status == .active)
    #expect(flawed.transactionId == "102")
    // A response with another status carries no such promise (and no transactions).
    builder.status = 21006
    let other = try #require(
      OldEntitlementLogic(flaws: [.status0MeansSubscribed]).evaluate(
        try builder.response(), at: now
      ).first)
    #expect(other.status == .expired)
  }

  @Test("a transaction whose date was set aside at ingest is left out, its id kept")
  func incompleteTransactionLeftOut() throws {
    var builder = ResponseBuilder()
    var transactions = monthly(2, lastStart: -days(5))
    transactions[1]["expires_date_ms"] = "soon"
    builder.latest = transactions
    let decoded = try decodeResponse(builder.json)
    #expect(decoded.setAside.map(\.path) == ["latest_receipt_info[1].expires_date_ms"])
    #expect(decoded.response.latestReceiptInfo[1].isIncomplete)
    #expect(decoded.response.originalTransactionIds == ["100"])
    // Only the earlier period is read: it ran out 5 days ago.
    let entitlement = try #require(reference.evaluate(decoded.response, at: now).first)
    #expect(entitlement.status == .expired)
    #expect(entitlement.transactionId == "101")
  }
}

extension Array {
  /// A fixed permutation, so tests do not depend on randomness.
  func shuffledDeterministically() -> [Element] {
    enumerated().sorted { ($0.offset * 7) % count < ($1.offset * 7) % count }.map(\.element)
  }
}
