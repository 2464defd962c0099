import ASN1
import Chronology

/// One `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }` of
/// an app receipt payload, whose value is the encoding of one element of the type the attribute's
/// type prescribes.
///
/// Values are decoded with the reader of the enclosing SET, narrowed in place: a receipt has
/// hundreds of attributes, and a separate reader for each would retain the input each time.
struct ReceiptAttribute {
  /// The attribute type (2 for the bundle id, 1705 for an original transaction id, ...).
  var type: Int64
  /// The OCTET STRING holding the value's encoding.
  var value: ASN1Element

  /// Reads the next attribute of a SET, checking its shape but not its value.
  static func next(in reader: inout ASN1Reader) throws(ASN1Error) -> ReceiptAttribute? {
    guard let element = try reader.next() else { return nil }
    guard element.tag == .sequence else {
      throw .unexpectedTag(
        offset: reader.offset(of: element.startIndex), expected: .sequence, found: element.tag)
    }
    return try reader.withChildren(of: element) { fields throws(ASN1Error) in
      // Two statements: `fields.integer(fields.read(...))` would copy the reader to call a
      // method on it while the argument mutates it.
      let typeElement = try fields.read(.integer)
      let type = try fields.integer(typeElement)
      _ = try fields.read(.integer)  // the attribute's version, which no reader needs
      let value = try AppReceiptReader.readAnyForm(of: .octetString, from: &fields)
      try fields.finish()
      return ReceiptAttribute(type: type, value: value)
    }
  }

  // MARK: - Values

  /// Decodes the one element of `tag` the value carries, with `reader`, the reader of the SET
  /// the attribute came from.
  private func carried<Value>(
    _ tag: ASN1Tag, as field: RawReceiptField, in reader: inout ASN1Reader,
    _ decode: (inout ASN1Reader, ASN1Element) throws(ASN1Error) -> Value
  ) throws(RawReceiptError) -> Value {
    do {
      return try reader.withEncapsulated(in: value) { inner throws(ASN1Error) in
        let element = try AppReceiptReader.readAnyForm(of: tag, from: &inner)
        try inner.finish()
        return try decode(&inner, element)
      }
    } catch {
      throw .malformedField(field, error)
    }
  }

  /// A UTF8String value.
  func text(_ field: RawReceiptField, in reader: inout ASN1Reader) throws(RawReceiptError)
    -> String
  {
    try carried(.utf8String, as: field, in: &reader) { inner, element throws(ASN1Error) in
      try inner.utf8String(element)
    }
  }

  /// An INTEGER value.
  func integer(_ field: RawReceiptField, in reader: inout ASN1Reader) throws(RawReceiptError)
    -> Int64
  {
    try carried(.integer, as: field, in: &reader) { inner, element throws(ASN1Error) in
      try inner.integer(element)
    }
  }

  /// A UTF8String value that must be a string of digits.
  func transactionId(_ field: RawReceiptField, in reader: inout ASN1Reader)
    throws(RawReceiptError) -> String
  {
    let id = try text(field, in: &reader)
    guard RawReceiptReader.isTransactionId(id) else {
      throw .invalidTransactionId(field, value: id)
    }
    return id
  }

  /// An INTEGER value as decimal text, as verifyReceipt writes ids.
  func decimal(_ field: RawReceiptField, in reader: inout ASN1Reader) throws(RawReceiptError)
    -> String
  {
    DecimalText.string(try integer(field, in: &reader))
  }

  /// An IA5String value in RFC 3339 form; Apple writes an empty string for "none".
  func date(_ field: RawReceiptField, in reader: inout ASN1Reader) throws(RawReceiptError)
    -> Timestamp?
  {
    let text = try carried(.ia5String, as: field, in: &reader) {
      inner, element throws(ASN1Error) in try inner.ia5Octets(element)
    }
    guard !text.isEmpty else { return nil }
    guard let date = ReceiptDate.parse(text) else {
      throw .invalidDate(field, text: String(decoding: text, as: UTF8.self))
    }
    return date
  }
}
