import Chronology
import Foundation
import LegacyReceipts

/// Decodes a response written inline in a test.
func decodeResponse(_ text: String) throws -> VerifyReceiptDecoder.Document {
  try Array(text.utf8).withUnsafeBytes { try VerifyReceiptDecoder.decode($0) }
}

/// The error a document fails with, or `nil`.
func decodingError(_ text: String) -> LegacyDecodingError? {
  do {
    _ = try decodeResponse(text)
    return nil
  } catch let error as LegacyDecodingError {
    return error
  } catch {
    return nil
  }
}

/// The repository's `Legacy/` folder, located from this file.
let legacyDirectory: URL = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Legacy")

/// 2024-06-15T12:00:00Z, the `request_date` of the hand-made sample.
let sampleRequestDate = Timestamp(millisecondsSince1970: 1_718_452_800_000)

/// Milliseconds for a day count, for building timelines.
func days(_ count: Int64) -> Int64 { count * Timestamp.millisecondsPerDay }

/// Builds verifyReceipt JSON for old-logic tests without the noise of real responses.
struct ResponseBuilder {
  var status = 0
  var requestDate = sampleRequestDate
  var latest: [[String: String]] = []
  var inApp: [[String: String]] = []
  var renewals: [[String: String]] = []

  static func transaction(
    id: String, original: String, product: String, group: String? = "G1", purchase: Timestamp,
    expires: Timestamp?, cancelled: Timestamp? = nil, upgraded: Bool = false,
    ownership: String = "PURCHASED"
  ) -> [String: String] {
    var fields = [
      "transaction_id": id, "original_transaction_id": original, "product_id": product,
      "purchase_date_ms": String(purchase.millisecondsSince1970),
      "in_app_ownership_type": ownership,
    ]
    if let group { fields["subscription_group_identifier"] = group }
    if let expires { fields["expires_date_ms"] = String(expires.millisecondsSince1970) }
    if let cancelled { fields["cancellation_date_ms"] = String(cancelled.millisecondsSince1970) }
    if upgraded { fields["is_upgraded"] = "true" }
    return fields
  }

  var json: String {
    func object(_ fields: [String: String]) -> String {
      "{"
        + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(
          separator: ",") + "}"
    }
    return """
      {"status":\(status),"environment":"Production","receipt":{"bundle_id":"com.example.app",\
      "request_date_ms":"\(requestDate.millisecondsSince1970)","in_app":[\(inApp.map(object).joined(separator: ","))]},\
      "latest_receipt_info":[\(latest.map(object).joined(separator: ","))],\
      "pending_renewal_info":[\(renewals.map(object).joined(separator: ","))]}
      """
  }

  func response() throws -> VerifyReceiptResponse { try decodeResponse(json).response }
}
