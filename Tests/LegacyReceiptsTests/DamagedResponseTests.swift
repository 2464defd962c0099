import Chronology
import Foundation
import LegacyReceipts
import TestDirectories
import Testing

/// The damaged-but-real-shaped corpus (`Fixtures/Damaged/damaged.ndjson`, written for this
/// test): every valid id of every record must be found, every damaged field set aside with its
/// path and reason, and only the record with nothing usable left quarantined. Our own code
/// only: the shapes follow Apple's documentation, the data is invented.
@Suite("Damaged responses: every valid id is found, every bad field set aside")
struct DamagedResponseTests {
  static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/Damaged/damaged.ndjson").path

  /// What each record must yield: its ids, and its set-aside fields as `path reason`.
  static let expected: [String: (ids: [String], setAside: [String], incomplete: Int)] = [
    "d01-renewal-placeholder": (
      ["1000000712345678"], ["response.pending_renewal_info[0].original_transaction_id masked"], 0
    ),
    "d02-ios6-masked-item": (["1000000046170000"], ["response.receipt.item_id masked"], 0),
    "d03-inapp-masked": (
      ["1000000712345700", "1000000712345702"],
      [
        "response.receipt.in_app[1].transaction_id masked",
        "response.receipt.in_app[1].original_transaction_id masked",
      ], 0
    ),
    "d04-latest-xxx": (
      ["1000000712345710"], ["response.latest_receipt_info[0].original_transaction_id masked"], 0
    ),
    "d05-latest-exponent": (
      ["1000000712345720"],
      ["response.latest_receipt_info[1].original_transaction_id malformed transaction id"], 0
    ),
    // The `_ms` spelling is set aside; the text spelling beside it dates the transaction.
    "d06-expires-object": (
      ["2000000730"], ["response.receipt.in_app[0].expires_date_ms wrong type"], 0
    ),
    "d07-quantity-array": (
      ["1000000712345740"], ["response.receipt.in_app[0].quantity wrong type"], 0
    ),
    "d08-purchase-date-text": (
      ["1000000712345750"], ["response.receipt.in_app[0].purchase_date unparsable date"], 1
    ),
    "d09-receipt-string": (["1000000712345760"], ["response.receipt wrong type"], 0),
    "d10-element-string": (["1000000712345770"], ["response.latest_receipt_info[0] wrong type"], 0),
    "d11-renewal-maybe": (
      ["1000000712345780"], ["response.pending_renewal_info[0].auto_renew_status wrong type"], 1
    ),
    "d12-redacted-word": (
      ["1000000712345790"], ["response.receipt.in_app[0].transaction_id masked"], 0
    ),
    "d13-environment-object": (["1000000712345800"], ["response.environment wrong type"], 0),
    "d14-download-masked": (["1000000712345810"], ["response.receipt.download_id masked"], 0),
    "d15-captured-at": (["1000000712345820"], ["captured_at unparsable date"], 0),
    "d16-app-transaction-masked": (["1000000712345830"], ["app_transaction_id masked"], 0),
    "d17-order-malformed": ([], ["order_id malformed order id"], 0),
    "d19-ios6-expired-placeholder": (
      ["1000000046170000"],
      ["response.latest_expired_receipt_info.original_transaction_id masked"], 0
    ),
  ]

  @Test("every record but one is kept as partial, with exactly its valid ids")
  func corpus() throws {
    var records: [LegacyRecord] = []
    var quarantined: [QuarantinedRecord] = []
    try LegacyInputReader().read([Self.file]) { event in
      switch event {
      case .record(let record): records.append(record)
      case .quarantined(let entry): quarantined.append(entry)
      case .fileStarted, .progress, .skipped: break
      }
    }
    // Read = accepted (here all partial) + quarantined.
    #expect(records.count + quarantined.count == 19)
    #expect(records.allSatisfy { $0.isPartial })
    #expect(Set(records.map(\.accountId)) == Set(Self.expected.keys))
    for record in records {
      guard let want = Self.expected[record.accountId] else { continue }
      #expect(
        record.originalTransactionIds.sorted() == want.ids, "\(record.accountId): ids")
      #expect(
        record.setAside.map { "\($0.path) \($0.reason.rawValue)" } == want.setAside,
        "\(record.accountId): \(record.setAside)")
      // Nothing set aside is ever a receipt's bytes.
      #expect(!record.setAside.contains { $0.excerpt.contains("MIIT") })
      if case .response(let response) = record.content {
        let incomplete =
          (response.latestReceiptInfo + (response.receipt?.inApp ?? [])).filter(\.isIncomplete)
          .count + response.pendingRenewalInfo.filter(\.isIncomplete).count
        #expect(incomplete == want.incomplete, "\(record.accountId): incomplete")
        // The old logic reads what remains, at the capture instant, without a guess.
        let instant = record.capturedAt ?? Timestamp(millisecondsSince1970: 1_701_000_000_000)
        _ = OldEntitlementLogic().evaluate(response, at: instant)
      }
    }
    let ids = records.first { $0.accountId == "d17-order-malformed" }
    #expect(ids?.appTransactionId == "704000000000042007")
    #expect(ids?.orderId == nil)
    #expect(records.first { $0.accountId == "d16-app-transaction-masked" }?.appTransactionId == nil)
    #expect(
      records.first { $0.accountId == "d15-captured-at" }?.capturedAt
        == Timestamp(millisecondsSince1970: 1_701_000_000_000))

    // A long run of base64 where a response belonged is never copied into an excerpt.
    let base64 = String(repeating: "MIITQgYJKoZIhvcNAQcCoIITMzCCEy8CAQExCzAJBgUrDgMCGgUA", count: 3)
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory.appendingPathComponent("base64.ndjson")
    try Data(
      #"{"account_id":"b","response":"\#(base64)","app_transaction_id":"704000000000042007"}"#.utf8
    )
    .write(to: path)
    var kept: [LegacyRecord] = []
    try LegacyInputReader().read([path.path]) { event in
      if case .record(let record) = event { kept.append(record) }
    }
    #expect(kept.first?.setAside.first?.path == "response")
    #expect(kept.first?.setAside.first?.excerpt.hasPrefix("<redacted: ") == true)

    let entry = try #require(quarantined.first)
    #expect(quarantined.count == 1)
    #expect(entry.reason == .wrongType)
    #expect(entry.detail.hasPrefix("nothing usable remains: receipt_data:"))
    #expect(!entry.excerpt.contains("MIIT"))
  }

  @Test(
    "masks are told from damage",
    arguments: [
      ("*****", true), ("xxx", true), ("37xxxxxxxxx89", true), ("[REDACTED]", true),
      ("<redacted>", true), ("XXXX-XXXX", false), ("1.00000071234568E+15", false), ("12x", false),
      ("", false), ("1000000712345678", false),
    ])
  func masks(text: String, isMask: Bool) throws {
    let line =
      #"{"account_id":"m","response":{"status":0,"receipt":{"in_app":[{"original_transaction_id":"\#(text)"}]}}}"#
    let directory = try TemporaryDirectory.make()
    defer { TemporaryDirectory.remove(directory) }
    let path = directory.appendingPathComponent("mask.ndjson")
    try Data(line.utf8).write(to: path)
    var records: [LegacyRecord] = []
    try LegacyInputReader().read([path.path]) { event in
      if case .record(let record) = event { records.append(record) }
    }
    let reasons = records.flatMap(\.setAside).map(\.reason)
    if text.isEmpty || text == "1000000712345678" {
      #expect(reasons.isEmpty)
    } else {
      #expect(reasons == [isMask ? .masked : .malformedTransactionId])
    }
  }
}
