import Chronology
import JSON

// MARK: - JSON

extension RawReceipt {
  /// The receipt as a JSON object, for scripts: `format`, `signature`, the receipt's fields,
  /// `original_transaction_ids`, `transaction_ids` and `in_app`, with the field names
  /// verifyReceipt uses. Absent fields are left out; each date is written twice, as ISO 8601
  /// (`purchase_date`) and as Unix milliseconds (`purchase_date_ms`).
  ///
  /// - Parameter style: Compact (one line) or pretty.
  /// - Returns: The JSON text.
  public func jsonText(style: JSONWriter.Style = .pretty) -> String {
    var writer = JSONWriter(style: style)
    let seeds = self.seeds
    writer.beginObject()
    writer.field("format", format.rawValue)
    writer.key("signature")
    writer.beginObject()
    switch signature {
    case .valid(let signer):
      writer.field("verdict", "valid")
      writer.field("signer", signer)
    case .invalid(let reason):
      writer.field("verdict", "invalid")
      writer.field("reason", reason)
    case .notChecked(let reason):
      writer.field("verdict", "not_checked")
      writer.field("reason", reason.description)
    }
    writer.endObject()
    writer.optionalField("environment", seeds.environment?.description)
    switch content {
    case .appReceipt(let receipt):
      writer.optionalField("receipt_type", receipt.receiptType)
      writer.optionalField("bundle_id", receipt.bundleId)
      writer.optionalField("application_version", receipt.applicationVersion)
      writer.optionalField("original_application_version", receipt.originalApplicationVersion)
      writer.date("receipt_creation_date", receipt.creationDate)
      writer.date("expiration_date", receipt.expirationDate)
    case .transactionReceipt(let receipt):
      writer.optionalField("bundle_id", receipt.bundleId)
      writer.optionalField("bundle_version", receipt.bundleVersion)
    }
    writer.stringArray("original_transaction_ids", seeds.originalTransactionIds)
    writer.stringArray("transaction_ids", seeds.transactionIds)
    writer.key("in_app")
    writer.beginArray()
    switch content {
    case .appReceipt(let receipt):
      for purchase in receipt.inAppPurchases { writer.purchase(purchase) }
    case .transactionReceipt(let receipt):
      writer.transaction(receipt)
    }
    writer.endArray()
    writer.endObject()
    return writer.string
  }
}

extension JSONWriter {
  fileprivate mutating func optionalField(_ name: String, _ value: String?) {
    guard let value else { return }
    field(name, value)
  }

  fileprivate mutating func date(_ name: String, _ value: Timestamp?) {
    guard let value else { return }
    field(name, value.iso8601)
    field(name + "_ms", value.millisecondsSince1970)
  }

  fileprivate mutating func stringArray(_ name: String, _ values: [String]) {
    key(name)
    beginArray()
    for value in values { self.value(value) }
    endArray()
  }

  fileprivate mutating func purchase(_ purchase: InAppRecord) {
    beginObject()
    optionalField("product_id", purchase.productId)
    if let quantity = purchase.quantity { field("quantity", quantity) }
    optionalField("transaction_id", purchase.transactionId)
    optionalField("original_transaction_id", purchase.originalTransactionId)
    date("purchase_date", purchase.purchaseDate)
    date("original_purchase_date", purchase.originalPurchaseDate)
    date("expires_date", purchase.expiresDate)
    date("cancellation_date", purchase.cancellationDate)
    optionalField("web_order_line_item_id", purchase.webOrderLineItemId)
    if let intro = purchase.isInIntroOfferPeriod { field("is_in_intro_offer_period", intro) }
    endObject()
  }

  fileprivate mutating func transaction(_ receipt: TransactionReceipt) {
    beginObject()
    optionalField("product_id", receipt.productId)
    if let quantity = receipt.quantity { field("quantity", quantity) }
    field("transaction_id", receipt.transactionId)
    optionalField("original_transaction_id", receipt.originalTransactionId)
    optionalField("item_id", receipt.itemId)
    date("purchase_date", receipt.purchaseDate)
    date("original_purchase_date", receipt.originalPurchaseDate)
    date("expires_date", receipt.expiresDate)
    optionalField("web_order_line_item_id", receipt.webOrderLineItemId)
    endObject()
  }
}
