import ASN1
import Chronology

/// Reads an app receipt payload straight from its bytes, for the DER shape Apple and Xcode
/// write: every element with a one-octet tag and a short definite length, every attribute
/// value a primitive OCTET STRING holding one primitive element, text in ASCII, dates in the
/// common RFC 3339 forms.
///
/// A receipt of 50 purchases has some 500 attributes; this loop reads one in a few dozen
/// instructions where the general reader takes several hundred. It never judges: at the first
/// byte outside that shape, or a value it would have to reject, it returns `nil`, and the
/// caller reads the whole payload again with ``ASN1Reader``, which accepts all of BER and names
/// every error. So both paths accept exactly the same receipts with the same result; the tests
/// compare them on thousands of damaged receipts.
///
/// Every position read is checked against the bounds of its enclosing element first (by
/// ``ASN1Reader/commonShape(in:at:limit:)`` or explicitly), and those bounds lie inside the
/// buffer, so the unchecked buffer subscripts stay inside it.
struct AppReceiptFastPath {
  private let buffer: UnsafeBufferPointer<UInt8>
  private var productIds = RepeatedValue<String>()
  private var originalTransactionIds = RepeatedValue<String>()
  private var originalPurchaseDates = RepeatedValue<Timestamp>()

  private init(_ buffer: UnsafeBufferPointer<UInt8>) {
    self.buffer = buffer
  }

  /// Reads a payload, or returns `nil` for the general reader to read it.
  ///
  /// - Parameter payload: The signed content of the envelope.
  /// - Returns: The receipt, exactly as the general reader reads it; or `nil`.
  static func read(_ payload: ArraySlice<UInt8>) -> RawAppReceipt? {
    payload.withUnsafeBufferPointer { buffer in
      var reader = AppReceiptFastPath(buffer)
      return reader.readPayload()
    }
  }

  private mutating func readPayload() -> RawAppReceipt? {
    guard let (set, attributes) = ASN1Reader.commonShape(in: buffer, at: 0, limit: buffer.count),
      set == 0x31, attributes.upperBound == buffer.count
    else { return nil }
    var receipt = RawAppReceipt()
    var index = attributes.lowerBound
    while index < attributes.upperBound {
      guard let (type, value, next) = attribute(at: index, limit: attributes.upperBound) else {
        return nil
      }
      index = next
      switch type {
      case AppReceiptField.receiptType.rawValue:
        guard let text = text(value) else { return nil }
        receipt.receiptType = text
      case AppReceiptField.bundleId.rawValue:
        guard let text = text(value) else { return nil }
        receipt.bundleId = text
      case AppReceiptField.applicationVersion.rawValue:
        guard let text = text(value) else { return nil }
        receipt.applicationVersion = text
      case AppReceiptField.originalApplicationVersion.rawValue:
        guard let text = text(value) else { return nil }
        receipt.originalApplicationVersion = text
      case AppReceiptField.creationDate.rawValue:
        guard let date = date(value) else { return nil }
        receipt.creationDate = date
      case AppReceiptField.expirationDate.rawValue:
        guard let date = date(value) else { return nil }
        receipt.expirationDate = date
      case AppReceiptField.inAppPurchase.rawValue:
        guard let purchase = inAppPurchase(value) else { return nil }
        receipt.inAppPurchases.append(purchase)
      default:
        // Unknown types, and purchase fields at the receipt level, mean nothing here.
        continue
      }
    }
    return receipt
  }

  /// One purchase: the SET of attributes that fills a type 17 value.
  private mutating func inAppPurchase(_ value: Range<Int>) -> InAppRecord? {
    guard let attributes = carried(0x31, value) else { return nil }
    // Fields in locals, the record made once at the end: mutating a record through the loop
    // made the compiler copy all of it, strings and all, several times per purchase.
    var quantity: Int64?
    var productId: String?
    var transactionId: String?
    var originalTransactionId: String?
    var purchaseDate: Timestamp?
    var originalPurchaseDate: Timestamp?
    var expiresDate: Timestamp?
    var cancellationDate: Timestamp?
    var webOrderLineItemId: String?
    var isInIntroOfferPeriod: Bool?
    var index = attributes.lowerBound
    while index < attributes.upperBound {
      guard let (type, value, next) = attribute(at: index, limit: attributes.upperBound) else {
        return nil
      }
      index = next
      switch type {
      case AppReceiptField.quantity.rawValue:
        guard let number = integer(value) else { return nil }
        quantity = number
      case AppReceiptField.productId.rawValue:
        guard let octets = asciiOctets(value),
          let id = productIds.value(
            for: octets, decode: { String(decoding: octets, as: UTF8.self) })
        else { return nil }
        productId = id
      case AppReceiptField.transactionId.rawValue:
        guard let octets = digitOctets(value) else { return nil }
        transactionId = String(decoding: octets, as: UTF8.self)
      case AppReceiptField.originalTransactionId.rawValue:
        guard let octets = digitOctets(value),
          let id = originalTransactionIds.value(
            for: octets, decode: { String(decoding: octets, as: UTF8.self) })
        else { return nil }
        originalTransactionId = id
      case AppReceiptField.purchaseDate.rawValue:
        guard let date = date(value) else { return nil }
        purchaseDate = date
      case AppReceiptField.originalPurchaseDate.rawValue:
        guard let octets = carriedOctets(0x16, value) else { return nil }
        if octets.isEmpty {
          originalPurchaseDate = nil
        } else {
          guard
            let date = originalPurchaseDates.value(
              for: octets, decode: { ReceiptDate.parseCommonForm(octets) })
          else { return nil }
          originalPurchaseDate = date
        }
      case AppReceiptField.expiresDate.rawValue:
        guard let date = date(value) else { return nil }
        expiresDate = date
      case AppReceiptField.cancellationDate.rawValue:
        guard let date = date(value) else { return nil }
        cancellationDate = date
      case AppReceiptField.webOrderLineItemId.rawValue:
        guard let id = integer(value) else { return nil }
        webOrderLineItemId = DecimalText.string(id)
      case AppReceiptField.isInIntroOfferPeriod.rawValue:
        guard let flag = integer(value) else { return nil }
        isInIntroOfferPeriod = flag != 0
      default:
        // Unknown types, and receipt fields inside a purchase, mean nothing here.
        continue
      }
    }
    return InAppRecord(
      quantity: quantity, productId: productId, transactionId: transactionId,
      originalTransactionId: originalTransactionId, purchaseDate: purchaseDate,
      originalPurchaseDate: originalPurchaseDate, expiresDate: expiresDate,
      cancellationDate: cancellationDate, webOrderLineItemId: webOrderLineItemId,
      isInIntroOfferPeriod: isInIntroOfferPeriod)
  }

  // MARK: - Attributes

  /// The attribute at `index`: `30 L { 02 L type, 02 L version, 04 L value }` filling its
  /// SEQUENCE, with a type of one or two octets and a short-form version.
  @inline(__always)
  private func attribute(at index: Int, limit: Int) -> (type: Int64, value: Range<Int>, next: Int)?
  {
    guard let (sequence, fields) = ASN1Reader.commonShape(in: buffer, at: index, limit: limit),
      sequence == 0x30
    else { return nil }
    let end = fields.upperBound
    var position = fields.lowerBound
    guard position + 3 <= end, buffer[position] == 0x02 else { return nil }
    let typeLength = Int(buffer[position + 1])
    guard typeLength == 1 || typeLength == 2, position + 2 + typeLength <= end else { return nil }
    var type = Int64(Int8(bitPattern: buffer[position + 2]))
    if typeLength == 2 { type = type << 8 | Int64(buffer[position + 3]) }
    position += 2 + typeLength
    guard position + 2 <= end, buffer[position] == 0x02 else { return nil }
    let versionLength = Int(buffer[position + 1])
    guard versionLength < 0x80, position + 2 + versionLength <= end else { return nil }
    position += 2 + versionLength
    guard let (octetString, value) = ASN1Reader.commonShape(in: buffer, at: position, limit: end),
      octetString == 0x04, value.upperBound == end
    else { return nil }
    return (type, value, end)
  }

  // MARK: - Values

  /// The contents of the one element of tag `identifier` that fills `value`.
  @inline(__always)
  private func carried(_ identifier: UInt8, _ value: Range<Int>) -> Range<Int>? {
    guard
      let (tag, contents) = ASN1Reader.commonShape(
        in: buffer, at: value.lowerBound, limit: value.upperBound),
      tag == identifier, contents.upperBound == value.upperBound
    else { return nil }
    return contents
  }

  private func carriedOctets(_ identifier: UInt8, _ value: Range<Int>)
    -> UnsafeBufferPointer<UInt8>?
  {
    carried(identifier, value).map { UnsafeBufferPointer(rebasing: buffer[$0]) }
  }

  /// An INTEGER of one to eight octets, with no redundant leading octet (which the general
  /// reader accepts, so such a receipt goes to it).
  private func integer(_ value: Range<Int>) -> Int64? {
    guard let contents = carried(0x02, value), (1...8).contains(contents.count) else {
      return nil
    }
    if contents.count > 1 {
      let first = buffer[contents.lowerBound]
      let second = buffer[contents.lowerBound + 1]
      guard !(first == 0x00 && second & 0x80 == 0), !(first == 0xFF && second & 0x80 != 0)
      else { return nil }
    }
    var result: Int64 = buffer[contents.lowerBound] & 0x80 == 0 ? 0 : -1
    for index in contents { result = result << 8 | Int64(buffer[index]) }
    return result
  }

  /// The octets of a UTF8String that is all ASCII.
  private func asciiOctets(_ value: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
    guard let octets = carriedOctets(0x0C, value) else { return nil }
    var combined: UInt8 = 0
    for octet in octets { combined |= octet }
    return combined < 0x80 ? octets : nil
  }

  /// A UTF8String that is all ASCII.
  private func text(_ value: Range<Int>) -> String? {
    asciiOctets(value).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The octets of a UTF8String that is a non-empty string of digits.
  private func digitOctets(_ value: Range<Int>) -> UnsafeBufferPointer<UInt8>? {
    guard let octets = carriedOctets(0x0C, value), !octets.isEmpty else { return nil }
    for octet in octets where octet &- 0x30 > 9 { return nil }
    return octets
  }

  /// An IA5String date: `.some(nil)` for the empty string that means none, else one of the
  /// common RFC 3339 forms.
  private func date(_ value: Range<Int>) -> Timestamp?? {
    guard let octets = carriedOctets(0x16, value) else { return nil }
    if octets.isEmpty { return .some(nil) }
    guard let instant = ReceiptDate.parseCommonForm(octets) else { return nil }
    return instant
  }
}
