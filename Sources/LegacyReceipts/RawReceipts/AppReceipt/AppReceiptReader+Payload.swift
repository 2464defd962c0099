import ASN1
import Chronology

// MARK: - The payload

extension AppReceiptReader {
  /// Reads the receipt payload: a SET of attributes, in-app purchases among them.
  ///
  /// - Parameters:
  ///   - payload: The signed content of the envelope.
  ///   - usesFastPath: Whether a payload in the common DER shape is read by
  ///     ``AppReceiptFastPath``; tests turn it off to compare.
  /// - Returns: The receipt's contents.
  /// - Throws: ``RawReceiptError`` naming the first damage found; offsets count from the
  ///   payload's first byte.
  static func readPayload(_ payload: ArraySlice<UInt8>, usesFastPath: Bool = true)
    throws(RawReceiptError) -> RawAppReceipt
  {
    if usesFastPath, let receipt = AppReceiptFastPath.read(payload) { return receipt }
    var attributes: ASN1Reader
    do {
      var top = ASN1Reader(payload)
      let set = try top.read(.set)
      try top.finish()
      attributes = try top.children(of: set)
    } catch {
      throw .malformedPayload(error)
    }
    var receipt = RawAppReceipt()
    while true {
      let next: ReceiptAttribute?
      do {
        next = try ReceiptAttribute.next(in: &attributes)
      } catch {
        throw .malformedPayload(error)
      }
      guard let attribute = next else { break }
      guard let type = AppReceiptField(rawValue: attribute.type) else { continue }
      let field = RawReceiptField.appReceipt(type)
      switch type {
      case .receiptType: receipt.receiptType = try attribute.text(field, in: &attributes)
      case .bundleId: receipt.bundleId = try attribute.text(field, in: &attributes)
      case .applicationVersion:
        receipt.applicationVersion = try attribute.text(field, in: &attributes)
      case .originalApplicationVersion:
        receipt.originalApplicationVersion = try attribute.text(field, in: &attributes)
      case .creationDate: receipt.creationDate = try attribute.date(field, in: &attributes)
      case .expirationDate: receipt.expirationDate = try attribute.date(field, in: &attributes)
      case .inAppPurchase:
        let index = receipt.inAppPurchases.count + 1
        receipt.inAppPurchases.append(try inAppPurchase(attribute, index: index, in: &attributes))
      default:
        // In-app fields at the receipt level mean nothing there.
        continue
      }
    }
    return receipt
  }

  /// Reads one in-app purchase: the value of a type 17 attribute, itself a SET of attributes.
  private static func inAppPurchase(
    _ attribute: ReceiptAttribute, index: Int, in reader: inout ASN1Reader
  ) throws(RawReceiptError) -> InAppRecord {
    var attributes: ASN1Reader
    do {
      attributes = try reader.withEncapsulated(in: attribute.value) { inner throws(ASN1Error) in
        let set = try inner.read(.set)
        try inner.finish()
        return try inner.children(of: set)
      }
    } catch {
      throw .malformedInAppPurchase(index: index, error)
    }
    var record = InAppRecord()
    while true {
      let next: ReceiptAttribute?
      do {
        next = try ReceiptAttribute.next(in: &attributes)
      } catch {
        throw .malformedInAppPurchase(index: index, error)
      }
      guard let attribute = next else { break }
      guard let type = AppReceiptField(rawValue: attribute.type) else { continue }
      let field = RawReceiptField.inAppPurchase(index: index, type)
      switch type {
      case .quantity: record.quantity = try attribute.integer(field, in: &attributes)
      case .productId: record.productId = try attribute.text(field, in: &attributes)
      case .transactionId:
        record.transactionId = try attribute.transactionId(field, in: &attributes)
      case .originalTransactionId:
        record.originalTransactionId = try attribute.transactionId(field, in: &attributes)
      case .purchaseDate: record.purchaseDate = try attribute.date(field, in: &attributes)
      case .originalPurchaseDate:
        record.originalPurchaseDate = try attribute.date(field, in: &attributes)
      case .expiresDate: record.expiresDate = try attribute.date(field, in: &attributes)
      case .cancellationDate: record.cancellationDate = try attribute.date(field, in: &attributes)
      case .webOrderLineItemId:
        record.webOrderLineItemId = try attribute.decimal(field, in: &attributes)
      case .isInIntroOfferPeriod:
        record.isInIntroOfferPeriod = try attribute.integer(field, in: &attributes) != 0
      default:
        // Receipt-level fields inside an in-app purchase mean nothing there.
        continue
      }
    }
    return record
  }
}
