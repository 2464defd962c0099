import Chronology

/// What `receipt-migrate receipt` shows an engineer about a raw receipt, as text ready to lay
/// out: labelled fields, then one row per purchase.
///
/// The summary decides what is shown and how each value is written; the command only arranges
/// it on the terminal. Absent values are written `-`; dates in ISO 8601 UTC.
public struct RawReceiptSummary: Hashable, Sendable {
  /// The receipt-level fields, in display order.
  public var fields: [Field]
  /// The titles of the purchase table's columns.
  public var purchaseColumns: [String]
  /// One row per purchase, in receipt order, with as many cells as ``purchaseColumns``.
  public var purchases: [[String]]

  /// The summary of a read receipt.
  ///
  /// - Parameter receipt: The receipt and its signature verdict.
  public init(_ receipt: RawReceipt) {
    purchaseColumns = [
      "#", "Product", "Transaction id", "Original transaction id", "Purchased", "Expires",
      "Cancelled",
    ]
    let seeds = receipt.seeds
    switch receipt.content {
    case .appReceipt(let app):
      fields = [
        Field("Format", "app receipt (PKCS#7 signedData)"),
        Field("Signature", receipt.signature.description),
        Field("Bundle id", Self.text(app.bundleId)),
        Field("Receipt type", Self.receiptType(app.receiptType, seeds.environment)),
        Field("App version", Self.text(app.applicationVersion)),
        Field("Original app version", Self.text(app.originalApplicationVersion)),
        Field("Created", Self.date(app.creationDate)),
      ]
      if let expiration = app.expirationDate {
        fields.append(Field("Expires", expiration.iso8601))
      }
      purchases = app.inAppPurchases.enumerated().map { offset, purchase in
        [
          String(offset + 1), Self.text(purchase.productId), Self.text(purchase.transactionId),
          Self.text(purchase.originalTransactionId), Self.date(purchase.purchaseDate),
          Self.date(purchase.expiresDate), Self.date(purchase.cancellationDate),
        ]
      }
    case .transactionReceipt(let transaction):
      fields = [
        Field("Format", "iOS 6 transaction receipt"),
        Field("Signature", receipt.signature.description),
        Field("Bundle id", Self.text(transaction.bundleId)),
        Field("Environment", Self.text(transaction.environment)),
        Field("Bundle version", Self.text(transaction.bundleVersion)),
      ]
      purchases = [
        [
          "1", Self.text(transaction.productId), transaction.transactionId,
          Self.text(transaction.originalTransactionId), Self.date(transaction.purchaseDate),
          Self.date(transaction.expiresDate), "-",
        ]
      ]
    }
    fields.append(Field("In-app purchases", String(purchases.count)))
    fields.append(
      Field(
        "Original transaction ids",
        seeds.originalTransactionIds.isEmpty
          ? "none: nothing to look up in the App Store Server API"
          : seeds.originalTransactionIds.joined(separator: ", ")))
  }

  private static func text(_ value: String?) -> String {
    guard let value, !value.isEmpty else { return "-" }
    return value
  }

  private static func date(_ value: Timestamp?) -> String {
    value?.iso8601 ?? "-"
  }

  private static func receiptType(_ type: String?, _ environment: ReceiptEnvironment?) -> String {
    guard let type else { return "-" }
    switch environment {
    case .production: return "\(type) (Production environment)"
    case .sandbox: return "\(type) (Sandbox environment)"
    case .other, nil: return "\(type) (no App Store Server API environment)"
    }
  }
}
