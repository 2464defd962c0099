/// Why an input was quarantined. The raw values are stable: they are stored in the database
/// and printed in summaries.
public enum QuarantineReason: String, CaseIterable, Hashable, Sendable, Comparable {
  /// The file is empty.
  case emptyFile = "empty file"
  /// The file could not be opened or read.
  case unreadableFile = "unreadable file"
  /// A record is larger than the configured maximum.
  case recordTooLarge = "record too large"
  /// The JSON ends inside a value.
  case truncatedJSON = "truncated JSON"
  /// The JSON is malformed.
  case malformedJSON = "malformed JSON"
  /// A string holds bytes that are not UTF-8.
  case invalidUTF8 = "invalid UTF-8"
  /// The record is JSON but not an object.
  case notAnObject = "not a JSON object"
  /// The record has no usable `account_id`.
  case missingAccountId = "missing account_id"
  /// The record has neither a `response` nor a `receipt_data`.
  case missingContent = "missing response"
  /// The document is not a verifyReceipt response (no `status`).
  case notAResponse = "not a verifyReceipt response"
  /// A field holds a value of the wrong type.
  case wrongType = "wrong type"
  /// A date string is in no known format.
  case unparsableDate = "unparsable date"
  /// A raw receipt (`receipt_data`) that is not a readable app or transaction receipt.
  case unreadableReceipt = "unreadable raw receipt"
  /// An id that cannot be an App Store transaction id (not 1 to 20 digits: mangled by a
  /// spreadsheet, negative, fractional). Such an id is never sent to Apple.
  case malformedTransactionId = "malformed transaction id"
  /// An id (or another value) an archive deliberately masked: `*****`, `xxx`, `37xxxxxxxxx89`.
  case masked = "masked"
  /// An `order_id` that cannot be an App Store order id (not letters and digits).
  case malformedOrderId = "malformed order id"
  /// A CSV file's header is not the documented one.
  case badCSVHeader = "bad CSV header"
  /// A CSV row is malformed.
  case badCSVRow = "bad CSV row"

  /// Orders reasons by their stable text, for deterministic summaries.
  public static func < (lhs: QuarantineReason, rhs: QuarantineReason) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}
