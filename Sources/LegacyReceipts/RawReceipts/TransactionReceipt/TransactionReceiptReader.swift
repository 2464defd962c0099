import Chronology

/// Reads legacy iOS 6 transaction receipts: base64 text of an old-style property list whose
/// `purchase-info` entry is base64 of another one, holding the transaction.
///
/// ```
/// {
///   "signature" = "AkS...";
///   "purchase-info" = "ewoJIm9yaWdpbmFs...";
///   "environment" = "Sandbox";
///   "pod" = "100";
///   "signing-status" = "0";
/// }
/// ```
///
/// The `signature` is Apple's own format, not PKCS#7, and is not checked.
public enum TransactionReceiptReader {
  /// Reads a transaction receipt from its base64 text.
  ///
  /// - Parameter base64: The receipt as stored; line breaks are ignored.
  /// - Returns: The transaction it holds.
  /// - Throws: ``RawReceiptError`` naming the first damage found.
  public static func read(base64: some StringProtocol) throws(RawReceiptError)
    -> TransactionReceipt
  {
    try read(RawReceiptReader.decodeBase64(base64.utf8, part: .receipt))
  }

  /// Reads a transaction receipt from its property list text (the decoded base64).
  ///
  /// - Parameter text: The UTF-8 text of the outer property list.
  /// - Returns: The transaction it holds.
  /// - Throws: ``RawReceiptError`` naming the first damage found.
  public static func read(_ text: [UInt8]) throws(RawReceiptError) -> TransactionReceipt {
    let outer = try dictionary(text[...], part: .receipt)
    let purchaseInfoText = try string("purchase-info", in: outer, part: .receipt)
    guard let purchaseInfoText else { throw .missingEntry(.receipt, key: "purchase-info") }
    let info = try dictionary(
      RawReceiptReader.decodeBase64(purchaseInfoText.utf8, part: .purchaseInfo)[...],
      part: .purchaseInfo)

    func entry(_ key: String) throws(RawReceiptError) -> String? {
      try string(key, in: info, part: .purchaseInfo)
    }
    func optionalId(_ key: String) throws(RawReceiptError) -> String? {
      guard let value = try entry(key) else { return nil }
      guard RawReceiptReader.isTransactionId(value) else {
        throw .invalidTransactionId(.purchaseInfo(key: key), value: value)
      }
      return value
    }
    func id(_ key: String) throws(RawReceiptError) -> String {
      guard let value = try optionalId(key) else { throw .missingEntry(.purchaseInfo, key: key) }
      return value
    }
    func number(_ key: String) throws(RawReceiptError) -> Int64? {
      guard let text = try entry(key) else { return nil }
      guard let value = Int64(text) else {
        throw .invalidNumber(.purchaseInfo(key: key), text: text)
      }
      return value
    }
    func milliseconds(_ key: String) throws(RawReceiptError) -> Timestamp? {
      guard let text = try entry(key) else { return nil }
      guard let value = Int64(text) else { throw .invalidDate(.purchaseInfo(key: key), text: text) }
      return Timestamp(millisecondsSince1970: value)
    }

    return TransactionReceipt(
      transactionId: try id("transaction-id"),
      // Optional: Apple's own receipt utility reads only `transaction-id`, and receipts that
      // hold nothing else exist.
      originalTransactionId: try optionalId("original-transaction-id"),
      productId: try entry("product-id"), bundleId: try entry("bid"),
      bundleVersion: try entry("bvrs"), itemId: try entry("item-id"),
      quantity: try number("quantity"), purchaseDate: try milliseconds("purchase-date-ms"),
      originalPurchaseDate: try milliseconds("original-purchase-date-ms"),
      expiresDate: try milliseconds("expires-date"),
      webOrderLineItemId: try entry("web-order-line-item-id"),
      environment: try string("environment", in: outer, part: .receipt))
  }

  private static func dictionary(_ text: ArraySlice<UInt8>, part: RawReceiptPart)
    throws(RawReceiptError) -> [String: PropertyListValue]
  {
    do {
      return try OldStylePropertyListParser.parseDictionary(text)
    } catch {
      throw .malformedPropertyList(part, error)
    }
  }

  private static func string(
    _ key: String, in dictionary: [String: PropertyListValue], part: RawReceiptPart
  ) throws(RawReceiptError) -> String? {
    switch dictionary[key] {
    case nil: return nil
    case .string(let value): return value
    default: throw .entryNotString(part, key: key)
    }
  }
}
