import ASN1

/// Why a raw receipt could not be read: one case per kind of damage, each with where it is.
///
/// The messages never quote receipt bytes beyond a single offending character, an id or a date,
/// so they are safe to log and to store with a quarantined record.
public enum RawReceiptError: Error, Hashable, Sendable, CustomStringConvertible {
  // MARK: - Text

  /// The receipt text is empty or only line breaks.
  case emptyInput

  /// The base64 text of `part` has the character `byte` at `offset`, which base64 does not use.
  case invalidBase64Character(RawReceiptPart, offset: Int, byte: UInt8)

  /// The base64 text of `part` has `characters` characters after its line breaks are removed, a
  /// count no base64 encoding has.
  case invalidBase64Length(RawReceiptPart, characters: Int)

  /// The decoded bytes start with `firstByte`, which is neither an app receipt (a BER SEQUENCE,
  /// `0x30`) nor an iOS 6 transaction receipt (a property list, `{`).
  case unrecognizedFormat(firstByte: UInt8)

  // MARK: - App receipts

  /// The PKCS#7 envelope is not well-formed BER; offsets count from its first byte.
  case malformedEnvelope(ASN1Error)

  /// The envelope's content type is `contentType`, not PKCS#7 `signedData`.
  case notSignedData(contentType: String)

  /// The signed content's type is `contentType`, not PKCS#7 `data`.
  case notDataContent(contentType: String)

  /// The envelope signs content it does not carry, so there is no payload to read.
  case detachedContent

  /// The receipt payload (the signed content) is not a well-formed SET of attributes; offsets
  /// count from the payload's first byte.
  case malformedPayload(ASN1Error)

  /// In-app purchase number `index` (from 1) is not a well-formed SET of attributes; offsets
  /// count from the payload's first byte.
  case malformedInAppPurchase(index: Int, ASN1Error)

  /// The value of `field` is not the ASN.1 type the format prescribes, or not valid in it (an id
  /// that is not UTF-8, an INTEGER too large).
  case malformedField(RawReceiptField, ASN1Error)

  // MARK: - Values

  /// A transaction id is empty or not a string of digits.
  case invalidTransactionId(RawReceiptField, value: String)

  /// A date is in no format the receipt uses (RFC 3339 in app receipts, Unix milliseconds in
  /// iOS 6 receipts).
  case invalidDate(RawReceiptField, text: String)

  /// A number is not a decimal integer.
  case invalidNumber(RawReceiptField, text: String)

  // MARK: - iOS 6 transaction receipts

  /// The property list of `part` is malformed.
  case malformedPropertyList(RawReceiptPart, PropertyListError)

  /// The property list of `part` has no entry `key`.
  case missingEntry(RawReceiptPart, key: String)

  /// The entry `key` of `part` is not a string.
  case entryNotString(RawReceiptPart, key: String)

  // MARK: - Description

  /// A sentence naming the damage, where it is and, where there is one, what to do.
  public var description: String {
    switch self {
    case .emptyInput:
      return "the receipt is empty"
    case .invalidBase64Character(let part, let offset, let byte):
      let hint =
        byte == 0x20
        ? "; base64 has no spaces, and a space where '+' belongs is the mark of a URL form "
          + "decoding: store the receipt-data exactly as the app sent it"
        : ""
      let character = byte == 0x20 ? "a space" : PropertyListError.describe(byte)
      return "\(part) is not base64: character \(offset) is \(character)\(hint)"
    case .invalidBase64Length(let part, let characters):
      return "\(part) is not base64: \(characters) characters cannot be a base64 encoding; "
        + "the text may be cut short"
    case .unrecognizedFormat(let firstByte):
      let hint = firstByte == UInt8(ascii: "<") ? " (an XML document is neither)" : ""
      return "the receipt is neither an app receipt (PKCS#7) nor an iOS 6 transaction receipt "
        + "(a text property list): its first byte is \(PropertyListError.describe(firstByte))"
        + hint
    case .malformedEnvelope(let error):
      return "the receipt's PKCS#7 envelope is malformed: \(error)"
    case .notSignedData(let contentType):
      return "the receipt's PKCS#7 envelope is \(contentType), not signedData"
    case .notDataContent(let contentType):
      return "the receipt's signed content is \(contentType), not data"
    case .detachedContent:
      return "the receipt's PKCS#7 envelope does not carry the payload it signs"
    case .malformedPayload(let error):
      return "the receipt payload is malformed (counting bytes from its start): \(error)"
    case .malformedInAppPurchase(let index, let error):
      return "in-app purchase \(index) of the receipt is malformed (counting bytes from the "
        + "payload's start): \(error)"
    case .malformedField(let field, let error):
      return "\(field) is malformed: \(error)"
    case .invalidTransactionId(let field, let value):
      return "\(field) is '\(value.prefix(40))', not a string of digits"
    case .invalidDate(let field, let text):
      return "\(field) is '\(text.prefix(40))', not a date"
    case .invalidNumber(let field, let text):
      return "\(field) is '\(text.prefix(40))', not a whole number"
    case .malformedPropertyList(let part, let error):
      return "\(part) is not a readable property list: \(error)"
    case .missingEntry(let part, let key):
      return "\(part) has no '\(key)' entry"
    case .entryNotString(let part, let key):
      return "the '\(key)' entry of \(part) is not a string"
    }
  }
}
