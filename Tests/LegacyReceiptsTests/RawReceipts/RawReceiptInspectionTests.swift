import Chronology
import LegacyReceipts
import Testing

@Suite("Raw receipt summary and JSON")
struct RawReceiptInspectionTests {
  static let created = Timestamp(millisecondsSince1970: 1_717_230_600_000)  // 2024-06-01T08:30:00Z

  static let appReceipt = RawReceipt(
    content: .appReceipt(
      RawAppReceipt(
        receiptType: "ProductionSandbox", bundleId: "com.example.app", applicationVersion: "42",
        creationDate: created,
        inAppPurchases: [
          InAppRecord(
            quantity: 1, productId: "com.example.monthly", transactionId: "12",
            originalTransactionId: "10", purchaseDate: created.adding(milliseconds: 250),
            expiresDate: created.adding(milliseconds: Timestamp.millisecondsPerDay),
            webOrderLineItemId: "500", isInIntroOfferPeriod: false),
          InAppRecord(transactionId: "13"),
        ])),
    signature: .notChecked(.noTrustedRoots))

  @Test("an app receipt's JSON names every field as verifyReceipt does and leaves out the absent")
  func appReceiptJSON() {
    #expect(
      Self.appReceipt.jsonText(style: .compact)
        == #"{"format":"app_receipt","signature":{"verdict":"not_checked","reason":"no trusted "#
        + #"root certificate was given"},"environment":"Sandbox","receipt_type":"ProductionSandbox","#
        + #""bundle_id":"com.example.app","application_version":"42","receipt_creation_date":"#
        + #""2024-06-01T08:30:00Z","receipt_creation_date_ms":1717230600000,"#
        + #""original_transaction_ids":["10"],"transaction_ids":["12","13"],"in_app":[{"#
        + #""product_id":"com.example.monthly","quantity":1,"transaction_id":"12","#
        + #""original_transaction_id":"10","purchase_date":"2024-06-01T08:30:00.250Z","#
        + #""purchase_date_ms":1717230600250,"expires_date":"2024-06-02T08:30:00Z","#
        + #""expires_date_ms":1717317000000,"web_order_line_item_id":"500","#
        + #""is_in_intro_offer_period":false},{"transaction_id":"13"}]}"#)
  }

  @Test("a summary lists the fields, then one row per purchase with - for the absent")
  func appReceiptSummary() {
    let summary = RawReceiptSummary(Self.appReceipt)
    #expect(
      summary.fields == [
        .init("Format", "app receipt (PKCS#7 signedData)"),
        .init("Signature", "not checked: no trusted root certificate was given"),
        .init("Bundle id", "com.example.app"),
        .init("Receipt type", "ProductionSandbox (Sandbox environment)"),
        .init("App version", "42"),
        .init("Original app version", "-"),
        .init("Created", "2024-06-01T08:30:00Z"),
        .init("In-app purchases", "2"),
        .init("Original transaction ids", "10"),
      ])
    #expect(
      summary.purchases == [
        [
          "1", "com.example.monthly", "12", "10", "2024-06-01T08:30:00.250Z",
          "2024-06-02T08:30:00Z", "-",
        ],
        ["2", "-", "13", "-", "-", "-", "-"],
      ])
    #expect(summary.purchaseColumns.count == summary.purchases[0].count)
  }

  @Test("a receipt without original transaction ids says there is nothing to look up")
  func noIds() {
    let receipt = RawReceipt(
      content: .appReceipt(RawAppReceipt(receiptType: "Xcode")),
      signature: .invalid(reason: "the PKCS#7 envelope is envelopedData"))
    let summary = RawReceiptSummary(receipt)
    #expect(
      summary.fields.last
        == .init("Original transaction ids", "none: nothing to look up in the App Store Server API")
    )
    #expect(
      summary.fields.contains(
        .init("Receipt type", "Xcode (no App Store Server API environment)")))
    #expect(summary.purchases.isEmpty)
    #expect(
      receipt.jsonText(style: .compact).hasPrefix(
        #"{"format":"app_receipt","signature":{"verdict":"invalid","reason":"#
          + #""the PKCS#7 envelope is envelopedData"},"environment":"Xcode""#))
  }

  @Test("an iOS 6 transaction receipt shows as one purchase")
  func transactionReceipt() {
    let receipt = RawReceipt(
      content: .transactionReceipt(
        TransactionReceipt(
          transactionId: "2", originalTransactionId: "1", productId: "com.example.coins",
          bundleId: "com.example.app", itemId: "99", purchaseDate: Self.created)),
      signature: .notChecked(.transactionReceipt))
    let summary = RawReceiptSummary(receipt)
    #expect(summary.fields.first == .init("Format", "iOS 6 transaction receipt"))
    #expect(summary.fields.contains(.init("Environment", "-")))
    #expect(
      summary.purchases == [
        ["1", "com.example.coins", "2", "1", "2024-06-01T08:30:00Z", "-", "-"]
      ])
    #expect(
      receipt.jsonText(style: .compact)
        == #"{"format":"transaction_receipt","signature":{"verdict":"not_checked","reason":"#
        + #""iOS 6 transaction receipts are signed in Apple's own format, which is not checked"},"#
        + #""bundle_id":"com.example.app","original_transaction_ids":["1"],"transaction_ids":["2"],"#
        + #""in_app":[{"product_id":"com.example.coins","transaction_id":"2","#
        + #""original_transaction_id":"1","item_id":"99","purchase_date":"2024-06-01T08:30:00Z","#
        + #""purchase_date_ms":1717230600000}]}"#)
  }

  @Test("a valid signature names its signer")
  func validSignature() {
    var receipt = Self.appReceipt
    receipt.signature = .valid(signer: "CN=Apple")
    #expect(
      RawReceiptSummary(receipt).fields[1] == .init("Signature", "valid (signed by CN=Apple)"))
    #expect(
      receipt.jsonText(style: .compact).contains(
        #""signature":{"verdict":"valid","signer":"CN=Apple"}"#))
  }
}
