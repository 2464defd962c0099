import ASN1
import Chronology

/// Reads the attributes of one in-app purchase straight from the bytes, for the DER shape Apple
/// and Xcode write: every element with a one-octet tag and a short definite length, every
/// value a primitive OCTET STRING holding one primitive element, text in ASCII.
///
/// A receipt holds hundreds of these attributes, and this loop reads one in a few dozen
/// instructions where the general reader takes several hundred. It never judges: at the first
/// byte outside that shape, or a value it would have to reject, it returns `nil`, and the
/// caller reads the purchase again with ``ASN1Reader``, which accepts all of BER and names
/// every error. So both paths accept exactly the same receipts with the same result; the tests
/// compare them on thousands of damaged receipts.
enum InAppPurchaseFastPath {
  /// Reads the attributes in `contents` (the contents of the purchase's SET) of `bytes`.
  static func read(
    _ bytes: ArraySlice<UInt8>, contents: Range<Int>, productIds: inout RepeatedText,
    originalTransactionIds: inout RepeatedText
  ) -> InAppRecord? {
    let base = bytes.startIndex
    return bytes.withUnsafeBufferPointer { buffer in
      read(
        buffer, contents: contents.lowerBound - base..<contents.upperBound - base,
        productIds: &productIds, originalTransactionIds: &originalTransactionIds)
    }
  }

  /// The same over the buffer, positions counted from its start; ``ASN1Reader/commonShape(in:at:limit:)``
  /// checks every position it reads against the bounds it is given, which lie inside `buffer`.
  private static func read(
    _ buffer: UnsafeBufferPointer<UInt8>, contents: Range<Int>, productIds: inout RepeatedText,
    originalTransactionIds: inout RepeatedText
  ) -> InAppRecord? {
    var record = InAppRecord()
    var index = contents.lowerBound
    let end = contents.upperBound
    while index < end {
      guard let (sequence, fields) = ASN1Reader.commonShape(in: buffer, at: index, limit: end),
        sequence == 0x30,
        let (typeTag, typeOctets) = ASN1Reader.commonShape(
          in: buffer, at: fields.lowerBound, limit: fields.upperBound),
        typeTag == 0x02, (1...2).contains(typeOctets.count),
        let (versionTag, version) = ASN1Reader.commonShape(
          in: buffer, at: typeOctets.upperBound, limit: fields.upperBound),
        versionTag == 0x02,
        let (valueTag, value) = ASN1Reader.commonShape(
          in: buffer, at: version.upperBound, limit: fields.upperBound),
        valueTag == 0x04, value.upperBound == fields.upperBound
      else { return nil }
      index = fields.upperBound

      var type = Int(Int8(bitPattern: buffer[typeOctets.lowerBound]))
      if typeOctets.count == 2 { type = type << 8 | Int(buffer[typeOctets.lowerBound + 1]) }
      guard let field = AppReceiptField(rawValue: Int64(type)) else { continue }
      switch field {
      case .quantity:
        guard let quantity = integer(buffer, value) else { return nil }
        record.quantity = quantity
      case .productId:
        guard let octets = ascii(buffer, value) else { return nil }
        record.productId = productIds.text(for: octets) { String(decoding: octets, as: UTF8.self) }
      case .transactionId:
        guard let octets = digits(buffer, value) else { return nil }
        record.transactionId = String(decoding: octets, as: UTF8.self)
      case .originalTransactionId:
        guard let octets = digits(buffer, value) else { return nil }
        record.originalTransactionId = originalTransactionIds.text(for: octets) {
          String(decoding: octets, as: UTF8.self)
        }
      case .purchaseDate, .originalPurchaseDate, .expiresDate, .cancellationDate:
        guard let date = date(buffer, value) else { return nil }
        switch field {
        case .purchaseDate: record.purchaseDate = date
        case .originalPurchaseDate: record.originalPurchaseDate = date
        case .expiresDate: record.expiresDate = date
        default: record.cancellationDate = date
        }
      case .webOrderLineItemId:
        guard let id = integer(buffer, value) else { return nil }
        record.webOrderLineItemId = DecimalText.string(id)
      case .isInIntroOfferPeriod:
        guard let flag = integer(buffer, value) else { return nil }
        record.isInIntroOfferPeriod = flag != 0
      default:
        // Receipt-level fields inside a purchase mean nothing there, as in the full reader.
        continue
      }
    }
    return record
  }

  // MARK: - Values

  /// The contents of the one element of tag `identifier` that fills `value`.
  private static func carried(
    _ identifier: UInt8, _ buffer: UnsafeBufferPointer<UInt8>, _ value: Range<Int>
  ) -> Range<Int>? {
    guard
      let (tag, contents) = ASN1Reader.commonShape(
        in: buffer, at: value.lowerBound, limit: value.upperBound),
      tag == identifier, contents.upperBound == value.upperBound
    else { return nil }
    return contents
  }

  /// An INTEGER of one to eight octets, with no redundant leading octet.
  private static func integer(_ buffer: UnsafeBufferPointer<UInt8>, _ value: Range<Int>)
    -> Int64?
  {
    guard let contents = carried(0x02, buffer, value), (1...8).contains(contents.count) else {
      return nil
    }
    if contents.count > 1 {
      let first = buffer[contents.lowerBound]
      let second = buffer[contents.lowerBound + 1]
      // Redundant sign octets are legal for the full reader; leave them to it.
      guard !(first == 0x00 && second & 0x80 == 0), !(first == 0xFF && second & 0x80 != 0)
      else { return nil }
    }
    var result: Int64 = buffer[contents.lowerBound] & 0x80 == 0 ? 0 : -1
    for index in contents { result = result << 8 | Int64(buffer[index]) }
    return result
  }

  /// The octets of a UTF8String that is all ASCII (anything else goes to the full reader).
  private static func ascii(_ buffer: UnsafeBufferPointer<UInt8>, _ value: Range<Int>)
    -> UnsafeBufferPointer<UInt8>?
  {
    guard let contents = carried(0x0C, buffer, value) else { return nil }
    var combined: UInt8 = 0
    for index in contents { combined |= buffer[index] }
    return combined < 0x80 ? UnsafeBufferPointer(rebasing: buffer[contents]) : nil
  }

  /// The octets of a UTF8String that is a non-empty string of digits.
  private static func digits(_ buffer: UnsafeBufferPointer<UInt8>, _ value: Range<Int>)
    -> UnsafeBufferPointer<UInt8>?
  {
    guard let contents = carried(0x0C, buffer, value), !contents.isEmpty else { return nil }
    for index in contents where buffer[index] &- 0x30 > 9 { return nil }
    return UnsafeBufferPointer(rebasing: buffer[contents])
  }

  /// An IA5String date: `.some(nil)` for the empty string that means none, else one of the
  /// common RFC 3339 forms.
  private static func date(_ buffer: UnsafeBufferPointer<UInt8>, _ value: Range<Int>)
    -> Timestamp??
  {
    guard let contents = carried(0x16, buffer, value) else { return nil }
    if contents.isEmpty { return .some(nil) }
    guard let instant = ReceiptDate.parseCommonForm(UnsafeBufferPointer(rebasing: buffer[contents]))
    else { return nil }
    return instant
  }
}
