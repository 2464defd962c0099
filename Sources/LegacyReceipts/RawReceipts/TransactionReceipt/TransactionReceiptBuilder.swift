import Foundation

/// Builds legacy iOS 6 transaction receipts shaped like Apple's — for tests and for the
/// simulator's legacy data.
public enum TransactionReceiptBuilder {
  /// The base64 text of a transaction receipt: an old-style property list whose `purchase-info`
  /// is base64 of another one holding the transaction's entries.
  ///
  /// - Parameters:
  ///   - receipt: The transaction.
  ///   - signature: The bytes to put in `signature`; readers never check them, as Apple's own
  ///     format for them is not public.
  /// - Returns: The base64 text.
  public static func base64Receipt(for receipt: TransactionReceipt, signature: [UInt8] = [])
    -> String
  {
    var info: [(String, String)] = []
    func add(_ key: String, _ value: String?) {
      if let value { info.append((key, value)) }
    }
    add("original-transaction-id", receipt.originalTransactionId)
    add("transaction-id", receipt.transactionId)
    add("product-id", receipt.productId)
    add("bid", receipt.bundleId)
    add("bvrs", receipt.bundleVersion)
    add("item-id", receipt.itemId)
    add("quantity", receipt.quantity.map(String.init))
    add("purchase-date-ms", receipt.purchaseDate.map { String($0.millisecondsSince1970) })
    add(
      "original-purchase-date-ms",
      receipt.originalPurchaseDate.map { String($0.millisecondsSince1970) })
    add("expires-date", receipt.expiresDate.map { String($0.millisecondsSince1970) })
    add("web-order-line-item-id", receipt.webOrderLineItemId)

    var outer: [(String, String)] = [
      ("signature", Data(signature).base64EncodedString()),
      ("purchase-info", Data(propertyList(info).utf8).base64EncodedString()),
    ]
    if let environment = receipt.environment { outer.append(("environment", environment)) }
    outer.append(("pod", "100"))
    outer.append(("signing-status", "0"))
    return Data(propertyList(outer).utf8).base64EncodedString()
  }

  /// A dictionary of strings in the layout Apple used: one tab-indented, quoted entry a line.
  static func propertyList(_ entries: [(String, String)]) -> String {
    func quoted(_ text: String) -> String {
      var escaped = "\""
      for character in text.unicodeScalars {
        switch character {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        default: escaped.unicodeScalars.append(character)
        }
      }
      return escaped + "\""
    }
    let lines = entries.map { "\t\(quoted($0.0)) = \(quoted($0.1));\n" }
    return "{\n" + lines.joined() + "}"
  }
}
