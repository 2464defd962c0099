import Chronology
import LegacyReceipts
import Testing

@Suite("VerifyReceiptDecoder")
struct VerifyReceiptDecoderTests {
  @Test("reads the modern layout with every date spelling, preferring the _ms fields")
  func modernLayout() throws {
    let document = try decodeResponse(
      """
      {"status": 0, "environment": "Sandbox", "is-retryable": false, "latest_receipt": "MIISECRET",
       "receipt": {"receipt_type": "ProductionSandbox", "bundle_id": "com.example.app", "adam_id": 0,
         "download_id": 90071992547409931, "request_date": "2024-06-15 12:00:00 Etc/GMT",
         "request_date_ms": "1718452800000", "original_purchase_date_pst": "2013-08-01 00:00:00 America/Los_Angeles",
         "in_app": [{"transaction_id": "1000000000000002", "original_transaction_id": "1000000000000001",
           "product_id": "p.monthly", "purchase_date": "2024-06-01 00:00:00 Etc/GMT",
           "expires_date_pst": "2024-06-30 17:00:00 America/Los_Angeles", "quantity": "1",
           "is_trial_period": "false", "in_app_ownership_type": "FAMILY_SHARED", "future_field": {"x": [1]}}]},
       "pending_renewal_info": [{"original_transaction_id": "1000000000000001", "auto_renew_status": "0",
         "expiration_intent": "3", "is_in_billing_retry_period": "0", "grace_period_expires_date": "2024-07-05 00:00:00 Etc/GMT"}],
       "unknown_top_level": true}
      """)
    let response = document.response
    #expect(response.status == .valid)
    #expect(response.environment == .sandbox)
    #expect(response.isRetryable == false)
    #expect(response.hadLatestReceipt)
    #expect(response.shape == .modern)
    #expect(response.requestDate == Timestamp(parsing: "2024-06-15T12:00:00Z"))
    #expect(response.receipt?.downloadId == 90_071_992_547_409_931)
    #expect(response.receipt?.originalPurchaseDate == Timestamp(parsing: "2013-08-01T07:00:00Z"))
    let transaction = try #require(response.receipt?.inApp.first)
    #expect(transaction.purchaseDate == Timestamp(parsing: "2024-06-01T00:00:00Z"))
    // 17:00 in Los Angeles on 30 June (daylight time, UTC-7) is midnight UTC on 1 July.
    #expect(transaction.expiresDate == Timestamp(parsing: "2024-07-01T00:00:00Z"))
    #expect(transaction.ownershipType == .familyShared)
    #expect(transaction.isTrialPeriod == false)
    let renewal = try #require(response.pendingRenewalInfo.first)
    #expect(renewal.autoRenewStatus == false)
    #expect(renewal.expirationIntent == .declinedPriceIncrease)
    #expect(renewal.gracePeriodExpiresDate == Timestamp(parsing: "2024-07-05T00:00:00Z"))
  }

  @Test("accepts numbers and booleans for every scalar, and keeps 64-bit ids exact")
  func lenientScalars() throws {
    let document = try decodeResponse(
      """
      {"status": "0", "is_retryable": 1, "receipt": {"request_date_ms": 1718452800000, "in_app": []},
       "latest_receipt_info": [{"transaction_id": 9007199254740993, "original_transaction_id": 9007199254740993,
         "product_id": "p", "purchase_date_ms": 1718000000000, "expires_date_ms": "1719000000000",
         "is_upgraded": true, "is_trial_period": 0, "quantity": 1.0, "cancellation_reason": "1"}],
       "pending_renewal_info": [{"original_transaction_id": 9007199254740993, "auto_renew_status": true,
         "is_in_billing_retry_period": "1", "expiration_intent": 2}]}
      """)
    let transaction = try #require(document.response.latestReceiptInfo.first)
    #expect(transaction.transactionId == "9007199254740993")
    #expect(transaction.isUpgraded)
    #expect(transaction.isTrialPeriod == false)
    #expect(transaction.quantity == 1)
    #expect(transaction.cancellationReason == 1)
    #expect(document.response.isRetryable == true)
    let renewal = try #require(document.response.pendingRenewalInfo.first)
    #expect(renewal.autoRenewStatus == true)
    #expect(renewal.isInBillingRetryPeriod == true)
    #expect(renewal.expirationIntent == .billingError)
  }

  @Test("normalises the iOS 6 layout into the same model")
  func iOS6Layout() throws {
    let document = try decodeResponse(
      """
      {"status": 21006,
       "receipt": {"bid": "com.example.app", "bvrs": "3.1", "item_id": "1234567890", "product_id": "p.monthly",
         "transaction_id": "11", "original_transaction_id": "10", "purchase_date_ms": "1700000000000",
         "expires_date": "1702592000000", "expires_date_formatted": "2023-12-14 22:13:20 Etc/GMT"},
       "latest_expired_receipt_info": {"product_id": "p.monthly", "transaction_id": "12", "original_transaction_id": "10",
         "purchase_date_ms": "1702592000000", "expires_date": "1705184000000"},
       "auto_renew_status": 0, "expiration_intent": "1", "auto_renew_product_id": "p.monthly"}
      """)
    let response = document.response
    #expect(response.shape == .iOS6)
    #expect(response.status == .validButExpired)
    #expect(response.status.carriesTransactions)
    #expect(response.bundleId == "com.example.app")
    #expect(response.receipt?.adamId == 1_234_567_890)
    #expect(response.receipt?.inApp.map(\.transactionId) == ["11"])
    #expect(response.receipt?.inApp.first?.origin == .iOS6Receipt)
    #expect(response.receipt?.inApp.first?.expiresDate?.millisecondsSince1970 == 1_702_592_000_000)
    #expect(response.latestReceiptInfo.map(\.transactionId) == ["12"])
    #expect(response.latestReceiptInfo.first?.origin == .latestExpiredReceiptInfo)
    let renewal = try #require(response.pendingRenewalInfo.first)
    #expect(renewal.originalTransactionId == "10")
    #expect(renewal.expirationIntent == .customerCancelled)
    #expect(renewal.autoRenewStatus == false)
    #expect(response.originalTransactionIds == ["10"])
  }

  @Test("an object-shaped latest_receipt_info in a modern response is one transaction")
  func objectLatestReceiptInfo() throws {
    let document = try decodeResponse(
      #"{"status": 0, "receipt": {"in_app": []}, "latest_receipt_info": {"transaction_id": "5", "original_transaction_id": "4"}}"#
    )
    #expect(document.response.latestReceiptInfo.map(\.transactionId) == ["5"])
    #expect(document.response.shape == .modern)
  }

  @Test(
    "understands every status code, including bodies with nothing but the status",
    arguments: [
      (Int64(21000), false), (21002, false), (21003, false), (21004, false), (21005, false),
      (21006, true),
      (21007, false), (21008, false), (21009, false), (21010, false), (21150, false), (0, true),
      (99999, false),
    ])
  func statusCodes(code: Int64, carriesTransactions: Bool) throws {
    let response = try decodeResponse(#"{"status": \#(code), "exception": "x"}"#).response
    #expect(response.status.rawValue == code)
    #expect(response.status.carriesTransactions == carriesTransactions)
    #expect(response.status.meaning != "undocumented status" || code == 99999)
    #expect(response.status.isInternalError == (code == 21150))
  }

  @Test("deduplicates by transaction id, preferring latest_receipt_info, and lists ids once")
  func deduplication() throws {
    let response = try decodeResponse(
      """
      {"status": 0, "receipt": {"in_app": [
         {"transaction_id": "2", "original_transaction_id": "1", "product_id": "stale-copy"},
         {"transaction_id": "3", "original_transaction_id": "1", "product_id": "p"},
         {"transaction_id": "9", "original_transaction_id": "8", "product_id": "lifetime"}]},
       "latest_receipt_info": [
         {"transaction_id": "2", "original_transaction_id": "1", "product_id": "p"},
         {"transaction_id": "2", "original_transaction_id": "1", "product_id": "p"}],
       "pending_renewal_info": [{"original_transaction_id": "1"}, {"original_transaction_id": "7"}]}
      """
    ).response
    #expect(response.mergedTransactions.map(\.transactionId) == ["2", "3", "9"])
    #expect(response.mergedTransactions.first?.productId == "p")
    #expect(response.originalTransactionIds == ["1", "8", "7"])
  }

  @Test(
    "sets aside a field of the wrong type or a bad date with its path and reason, and reads the rest",
    arguments: [
      (
        #"{"status": 0, "receipt": {"in_app": [{"transaction_id": "1"}, {"expires_date_ms": {"a": 1}}]}}"#,
        "receipt.in_app[1].expires_date_ms",
        "expected a number or numeric string, found an object", QuarantineReason.wrongType, 82
      ),
      (
        #"{"status": 0, "latest_receipt_info": [{"purchase_date": "yesterday"}]}"#,
        "latest_receipt_info[0].purchase_date", "unparsable date 'yesterday'", .unparsableDate,
        56
      ),
      (
        #"{"status": 0, "pending_renewal_info": [{"auto_renew_status": "maybe"}]}"#,
        "pending_renewal_info[0].auto_renew_status",
        "expected a boolean or boolean string, found a string", .wrongType, 61
      ),
    ])
  func setAside(
    document: String, path: String, detail: String, reason: QuarantineReason, offset: Int
  ) throws {
    let decoded = try decodeResponse(document)
    let field = try #require(decoded.setAside.first)
    #expect(decoded.setAside.count == 1)
    #expect(field.path == path)
    #expect(field.detail == detail)
    #expect(field.reason == reason)
    #expect(field.byteOffset == offset)
    #expect(decoded.response.status == .valid)
    // The field's transaction or renewal is kept, marked incomplete for the old logic.
    let incomplete =
      decoded.response.latestReceiptInfo.map(\.isIncomplete)
      + (decoded.response.receipt?.inApp.map(\.isIncomplete) ?? [])
      + decoded.response.pendingRenewalInfo.map(\.isIncomplete)
    #expect(incomplete.filter { $0 }.count == 1)
  }

  @Test(
    "names the field, the reason and the byte when nothing of the document can be used",
    arguments: [
      (
        #"{"status": [0]}"#,
        "status: expected a number or numeric string, found an array at byte 11", "wrong type"
      ),
      (
        #"{"receipt": {}}"#, "not a verifyReceipt response: it has no 'status' field",
        "missing field"
      ),
      (
        #"{"status": 0, "receipt": {"in_app": [{"transaction_id": "1"#,
        "receipt.in_app[0].transaction_id: truncated JSON (input ended inside a value) at byte 58",
        "truncated JSON"
      ),
    ])
  func errors(document: String, message: String, reason: String) throws {
    let error = try #require(decodingError(document))
    #expect(error.description == message)
    #expect(error.reason == reason)
  }
}

@Suite("LegacyDateFormatter")
struct LegacyDateFormatterTests {
  // 01:00 to 02:00 on the first Sunday of November happens twice in Los Angeles, so a local
  // time in that hour is ambiguous (the reason the *_ms fields win); the cases avoid it.
  @Test(
    "writes what the parser reads back, across daylight-saving changes",
    arguments: [
      "2024-01-15T12:00:00Z", "2024-03-10T09:59:59Z", "2024-03-10T10:00:00Z",
      "2024-07-01T00:00:00Z", "2024-11-03T07:59:59Z", "2024-11-03T10:00:00Z",
    ])
  func roundTrip(text: String) throws {
    let instant = try #require(Timestamp(parsing: text))
    #expect(LegacyDateParser.parse(LegacyDateFormatter.gmt(instant)) == instant)
    #expect(LegacyDateParser.parse(LegacyDateFormatter.pacific(instant)) == instant)
  }

  @Test("the GMT spelling agrees with the ISO 8601 one for instants spread over 1970–2099")
  func agreesWithISO8601() {
    var random = SystemRandomNumberGenerator()
    for _ in 0..<5_000 {
      let instant = Timestamp(
        millisecondsSince1970: Int64.random(in: 0..<4_102_444_800_000, using: &random))
      let iso = instant.iso8601
      let expected = String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8))
      #expect(LegacyDateFormatter.gmt(instant) == expected + " Etc/GMT", "\(iso)")
    }
  }

  /// The instants come from records and signed values; the Pacific spelling shifts them by
  /// hours and builds the year's daylight-saving dates, all of which once trapped near the
  /// edges of 64 bits.
  static let extremeInstants: [Int64] = [
    .min, .min + 1, .min + 3_600_000, .max - 3_600_000, .max - 1, .max,
  ]

  @Test(
    "spells instants at the edges of 64 bits without trapping",
    arguments: Self.extremeInstants)
  func extremes(milliseconds: Int64) {
    let instant = Timestamp(millisecondsSince1970: milliseconds)
    #expect(LegacyDateFormatter.gmt(instant).hasSuffix(" Etc/GMT"))
    #expect(LegacyDateFormatter.pacific(instant).hasSuffix(" America/Los_Angeles"))
  }

  @Test("spells both forms as Apple did")
  func spelling() throws {
    let instant = try #require(Timestamp(parsing: "2024-06-15T12:00:00Z"))
    #expect(LegacyDateFormatter.gmt(instant) == "2024-06-15 12:00:00 Etc/GMT")
    #expect(LegacyDateFormatter.pacific(instant) == "2024-06-15 05:00:00 America/Los_Angeles")
  }
}
