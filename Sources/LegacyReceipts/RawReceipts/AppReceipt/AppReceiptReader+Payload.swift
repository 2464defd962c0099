import ASN1
import Chronology

// MARK: - The payload

extension AppReceiptReader {
  /// One `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
  private struct Attribute {
    var type: Int64
    var value: ASN1Element
  }

  /// Reads the receipt payload: a SET of attributes, in-app purchases among them.
  ///
  /// - Parameter payload: The signed content of the envelope.
  /// - Returns: The receipt's contents.
  /// - Throws: ``RawReceiptError`` naming the first damage found; offsets count from the
  ///   payload's first byte.
  static func readPayload(_ payload: ArraySlice<UInt8>) throws(RawReceiptError) -> RawAppReceipt {
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
      let next: Attribute?
      do {
        next = try nextAttribute(&attributes)
      } catch {
        throw .malformedPayload(error)
      }
      guard let attribute = next else { break }
      guard let type = AppReceiptField(rawValue: attribute.type) else { continue }
      let field = RawReceiptField.appReceipt(type)
      let value = attribute.value
      switch type {
      case .receiptType: receipt.receiptType = try text(value, of: field, in: attributes)
      case .bundleId: receipt.bundleId = try text(value, of: field, in: attributes)
      case .applicationVersion:
        receipt.applicationVersion = try text(value, of: field, in: attributes)
      case .originalApplicationVersion:
        receipt.originalApplicationVersion = try text(value, of: field, in: attributes)
      case .creationDate: receipt.creationDate = try date(value, of: field, in: attributes)
      case .expirationDate: receipt.expirationDate = try date(value, of: field, in: attributes)
      case .inAppPurchase:
        let index = receipt.inAppPurchases.count + 1
        receipt.inAppPurchases.append(try inAppPurchase(value, index: index, in: attributes))
      default:
        // In-app fields at the receipt level mean nothing there.
        continue
      }
    }
    return receipt
  }

  /// Reads one in-app purchase: the value of a type 17 attribute, itself a SET of attributes.
  private static func inAppPurchase(_ value: ASN1Element, index: Int, in reader: ASN1Reader)
    throws(RawReceiptError) -> InAppRecord
  {
    var attributes: ASN1Reader
    do {
      var inner = try reader.encapsulated(in: value)
      let set = try inner.read(.set)
      try inner.finish()
      attributes = try inner.children(of: set)
    } catch {
      throw .malformedInAppPurchase(index: index, error)
    }
    var record = InAppRecord()
    while true {
      let next: Attribute?
      do {
        next = try nextAttribute(&attributes)
      } catch {
        throw .malformedInAppPurchase(index: index, error)
      }
      guard let attribute = next else { break }
      guard let type = AppReceiptField(rawValue: attribute.type) else { continue }
      let field = RawReceiptField.inAppPurchase(index: index, type)
      let value = attribute.value
      switch type {
      case .quantity: record.quantity = try integer(value, of: field, in: attributes)
      case .productId: record.productId = try text(value, of: field, in: attributes)
      case .transactionId:
        record.transactionId = try transactionId(value, of: field, in: attributes)
      case .originalTransactionId:
        record.originalTransactionId = try transactionId(value, of: field, in: attributes)
      case .purchaseDate: record.purchaseDate = try date(value, of: field, in: attributes)
      case .originalPurchaseDate:
        record.originalPurchaseDate = try date(value, of: field, in: attributes)
      case .expiresDate: record.expiresDate = try date(value, of: field, in: attributes)
      case .cancellationDate: record.cancellationDate = try date(value, of: field, in: attributes)
      case .webOrderLineItemId:
        record.webOrderLineItemId = String(try integer(value, of: field, in: attributes))
      case .isInIntroOfferPeriod:
        record.isInIntroOfferPeriod = try integer(value, of: field, in: attributes) != 0
      default:
        // Receipt-level fields inside an in-app purchase mean nothing there.
        continue
      }
    }
    return record
  }

  /// Reads the next attribute of a SET, checking its shape but not its value.
  private static func nextAttribute(_ reader: inout ASN1Reader) throws(ASN1Error) -> Attribute? {
    guard let element = try reader.next() else { return nil }
    guard element.tag == .sequence else {
      throw .unexpectedTag(
        offset: reader.offset(of: element.startIndex), expected: .sequence, found: element.tag)
    }
    var fields = try reader.children(of: element)
    let type = try fields.integer(fields.read(.integer))
    _ = try fields.read(.integer)  // the attribute's version, which no reader needs
    let value = try readAnyForm(of: .octetString, from: &fields)
    try fields.finish()
    return Attribute(type: type, value: value)
  }

  // MARK: - Values

  /// Decodes the one element of `tag` carried in an attribute's value.
  private static func carried<Value>(
    _ tag: ASN1Tag, in value: ASN1Element, of field: RawReceiptField, in reader: ASN1Reader,
    _ decode: (ASN1Reader, ASN1Element) throws(ASN1Error) -> Value
  ) throws(RawReceiptError) -> Value {
    do {
      var inner = try reader.encapsulated(in: value)
      let element = try readAnyForm(of: tag, from: &inner)
      try inner.finish()
      return try decode(inner, element)
    } catch {
      throw .malformedField(field, error)
    }
  }

  private static func text(
    _ value: ASN1Element, of field: RawReceiptField, in reader: ASN1Reader
  ) throws(RawReceiptError) -> String {
    try carried(.utf8String, in: value, of: field, in: reader) { inner, element throws(ASN1Error) in
      try inner.utf8String(element)
    }
  }

  private static func integer(
    _ value: ASN1Element, of field: RawReceiptField, in reader: ASN1Reader
  ) throws(RawReceiptError) -> Int64 {
    try carried(.integer, in: value, of: field, in: reader) { inner, element throws(ASN1Error) in
      try inner.integer(element)
    }
  }

  private static func transactionId(
    _ value: ASN1Element, of field: RawReceiptField, in reader: ASN1Reader
  ) throws(RawReceiptError) -> String {
    let id = try text(value, of: field, in: reader)
    guard RawReceiptReader.isTransactionId(id) else {
      throw .invalidTransactionId(field, value: id)
    }
    return id
  }

  /// An RFC 3339 date; Apple writes an empty string for "none".
  private static func date(
    _ value: ASN1Element, of field: RawReceiptField, in reader: ASN1Reader
  ) throws(RawReceiptError) -> Timestamp? {
    let text = try carried(.ia5String, in: value, of: field, in: reader) {
      inner, element throws(ASN1Error) in try inner.ia5String(element)
    }
    guard !text.isEmpty else { return nil }
    guard let date = Timestamp(parsing: text) else { throw .invalidDate(field, text: text) }
    return date
  }
}
