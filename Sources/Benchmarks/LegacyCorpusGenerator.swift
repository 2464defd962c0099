import Chronology
import Foundation
import LegacyReceipts

/// Writes a synthetic corpus of realistic stored verifyReceipt responses as NDJSON: each
/// subscriber has about 36 monthly renewals in both `in_app` and `latest_receipt_info`, every
/// date in its three spellings, a `pending_renewal_info`, and an ~8 KB `latest_receipt` — the
/// shape that dominates real archives.
public struct LegacyCorpusGenerator {
  /// The capture instant written into every response.
  public var requestDate = Timestamp(millisecondsSince1970: 1_718_452_800_000)

  /// Creates a generator.
  public init() {}

  /// Writes responses until the file reaches `bytes`.
  ///
  /// - Parameters:
  ///   - path: the file to create.
  ///   - bytes: the target size.
  /// - Returns: the number of responses written and the exact size.
  /// - Throws: when the file cannot be written.
  public func write(to path: String, bytes: Int64) throws -> (responses: Int, bytes: Int64) {
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let receipt = Self.latestReceipt()
    var written: Int64 = 0
    var count = 0
    var buffer = Data()
    while written < bytes {
      let line = response(index: count, latestReceipt: receipt)
      buffer.append(contentsOf: line.utf8)
      written += Int64(line.utf8.count)
      count += 1
      if buffer.count > 4 << 20 {
        handle.write(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    handle.write(buffer)
    return (count, written)
  }

  /// One NDJSON line.
  func response(index: Int, latestReceipt: String) -> String {
    let renewals = 30 + index % 13  // 30 to 42, about 36 on average
    let original = 1_000_000_700_000_000 + Int64(index) * 100
    let month: Int64 = 30 * Timestamp.millisecondsPerDay
    let start =
      requestDate.millisecondsSince1970 - Int64(renewals - 1) * month - Int64(index % 25)
      * Timestamp.millisecondsPerDay
    var latest: [String] = []
    var inApp: [String] = []
    latest.reserveCapacity(renewals)
    inApp.reserveCapacity(renewals)
    for renewal in 0..<renewals {
      let purchase = start + Int64(renewal) * month
      let fields = transaction(
        id: original + Int64(renewal), original: original,
        product: index % 4 == 0 ? "com.example.premium.yearly" : "com.example.premium.monthly",
        purchase: purchase, originalPurchase: start, expires: purchase + month,
        webOrder: 230_000_000_000_000 + Int64(index) * 100 + Int64(renewal),
        trial: renewal == 0)
      latest.append(fields + #","subscription_group_identifier":"20000001"}"#)
      inApp.append(fields + "}")
    }
    latest.reverse()
    let request = requestDate.millisecondsSince1970
    return
      #"{"account_id":"bench-\#(index)","response":{"status":0,"environment":"Production","receipt":{"receipt_type":"Production","adam_id":1234567890,"app_item_id":1234567890,"bundle_id":"com.example.app","application_version":"412","download_id":\#(90_071_992_547_409_931 + Int64(index)),"version_external_identifier":865201234,"receipt_creation_date":"\#(Self.gmt(request - 3_600_000))","receipt_creation_date_ms":"\#(request - 3_600_000)","receipt_creation_date_pst":"\#(Self.pst(request - 3_600_000))","request_date":"\#(Self.gmt(request))","request_date_ms":"\#(request)","request_date_pst":"\#(Self.pst(request))","original_purchase_date":"\#(Self.gmt(start))","original_purchase_date_ms":"\#(start)","original_purchase_date_pst":"\#(Self.pst(start))","original_application_version":"1.0","in_app":[\#(inApp.joined(separator: ","))]},"latest_receipt_info":[\#(latest.joined(separator: ","))],"latest_receipt":"\#(latestReceipt)","pending_renewal_info":[{"auto_renew_product_id":"com.example.premium.monthly","product_id":"com.example.premium.monthly","original_transaction_id":"\#(original)","auto_renew_status":"\#(index % 5 == 0 ? 0 : 1)"\#(index % 5 == 0 ? #","expiration_intent":"1""# : "")}]}}"#
      + "\n"
  }

  private func transaction(
    id: Int64, original: Int64, product: String, purchase: Int64, originalPurchase: Int64,
    expires: Int64,
    webOrder: Int64, trial: Bool
  ) -> String {
    #"{"quantity":"1","product_id":"\#(product)","transaction_id":"\#(id)","original_transaction_id":"\#(original)","purchase_date":"\#(Self.gmt(purchase))","purchase_date_ms":"\#(purchase)","purchase_date_pst":"\#(Self.pst(purchase))","original_purchase_date":"\#(Self.gmt(originalPurchase))","original_purchase_date_ms":"\#(originalPurchase)","original_purchase_date_pst":"\#(Self.pst(originalPurchase))","expires_date":"\#(Self.gmt(expires))","expires_date_ms":"\#(expires)","expires_date_pst":"\#(Self.pst(expires))","web_order_line_item_id":"\#(webOrder)","is_trial_period":"\#(trial)","is_in_intro_offer_period":"false","in_app_ownership_type":"PURCHASED""#
  }

  private static func gmt(_ milliseconds: Int64) -> String {
    LegacyDateFormatter.gmt(Timestamp(millisecondsSince1970: milliseconds))
  }

  private static func pst(_ milliseconds: Int64) -> String {
    LegacyDateFormatter.pacific(Timestamp(millisecondsSince1970: milliseconds))
  }

  /// About 8 KB of base64, like a real receipt.
  static func latestReceipt() -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var text = "MIIT"
    text.reserveCapacity(8192)
    while text.utf8.count < 8188 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      text.append(alphabet[Int(state >> 58)])
    }
    return text + "=="
  }
}
