import ASN1
import Chronology

/// Reads app receipts — the base64 PKCS#7 `receipt-data` apps send — into ``RawAppReceipt``
/// values, with every in-app purchase rather than only the first.
///
/// The PKCS#7 envelope is walked with the bounded ``ASN1Reader`` to reach the signed content, so
/// reading never depends on OpenSSL and accepts DER as well as the BER with indefinite lengths
/// that Xcode's receipts use. Checking the signature is separate: ``RawReceiptSignature``.
///
/// Unknown attribute types are skipped (Apple adds undocumented ones); a known attribute whose
/// value has the wrong type, an id that is not digits or a date that does not parse is an error,
/// because a receipt damaged there cannot be trusted to have the right ids anywhere.
///
/// Payloads in the DER shape Apple and Xcode write are read by a fast path in one pass over the
/// bytes; any other payload, and any damaged one, by the general reader, which gives the same
/// result or names the damage.
public enum AppReceiptReader {
  // MARK: - Reading

  /// Reads an app receipt from its base64 text.
  ///
  /// - Parameter base64: The receipt as stored; line breaks are ignored.
  /// - Returns: The receipt's contents.
  /// - Throws: ``RawReceiptError`` naming the first damage found.
  public static func read(base64: some StringProtocol) throws(RawReceiptError) -> RawAppReceipt {
    try read(RawReceiptReader.decodeBase64(base64.utf8, part: .receipt))
  }

  /// Reads an app receipt from its bytes (the decoded base64).
  ///
  /// - Parameter bytes: The DER or BER PKCS#7 `ContentInfo`.
  /// - Returns: The receipt's contents.
  /// - Throws: ``RawReceiptError`` naming the first damage found.
  public static func read(_ bytes: [UInt8]) throws(RawReceiptError) -> RawAppReceipt {
    try readPayload(signedContent(of: bytes))
  }

  /// Reads an app receipt without ``AppReceiptFastPath``: only the general reader, for
  /// tests that check both paths agree.
  static func readWithoutFastPath(_ bytes: [UInt8]) throws(RawReceiptError) -> RawAppReceipt {
    try readPayload(signedContent(of: bytes), usesFastPath: false)
  }

  // MARK: - The envelope

  /// The PKCS#7 content types, as encoded OBJECT IDENTIFIER contents.
  private static let dataType: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
  private static let signedDataType: [UInt8] = [
    0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02,
  ]

  /// The content an envelope signs: `ContentInfo` → `[0]` `SignedData` → `encapContentInfo` →
  /// `[0]` OCTET STRING (primitive in DER, segmented in streamed BER).
  ///
  /// - Parameter envelope: The PKCS#7 bytes.
  /// - Returns: The signed content; a slice of `envelope` unless it came in several segments.
  /// - Throws: ``RawReceiptError`` for a malformed envelope, the wrong content types or
  ///   detached content.
  static func signedContent(of envelope: [UInt8]) throws(RawReceiptError) -> ArraySlice<UInt8> {
    var top = ASN1Reader(envelope)
    var contentInfo = try inEnvelope { () throws(ASN1Error) in
      let element = try top.read(.sequence)
      try top.finish()
      return try top.children(of: element)
    }
    try expectContentType(&contentInfo, signedDataType) { .notSignedData(contentType: $0) }

    var encapsulated = try inEnvelope { () throws(ASN1Error) in
      let explicit = try contentInfo.read(.contextSpecific(0))
      try contentInfo.finish()
      var wrapper = try contentInfo.children(of: explicit)
      let signedData = try wrapper.read(.sequence)
      try wrapper.finish()
      var fields = try wrapper.children(of: signedData)
      _ = try fields.read(.integer)  // version
      _ = try fields.read(.set)  // digestAlgorithms
      let encapsulatedInfo = try fields.read(.sequence)
      _ = try fields.readIfPresent(.contextSpecific(0))  // certificates
      _ = try fields.readIfPresent(.contextSpecific(1))  // crls
      _ = try fields.read(.set)  // signerInfos
      try fields.finish()
      return try fields.children(of: encapsulatedInfo)
    }
    try expectContentType(&encapsulated, dataType) { .notDataContent(contentType: $0) }

    let content = try inEnvelope { () throws(ASN1Error) -> ArraySlice<UInt8>? in
      guard let explicit = try encapsulated.readIfPresent(.contextSpecific(0)) else { return nil }
      try encapsulated.finish()
      var wrapper = try encapsulated.children(of: explicit)
      let octets = try readAnyForm(of: .octetString, from: &wrapper)
      try wrapper.finish()
      return try wrapper.octetString(octets)
    }
    guard let content else { throw .detachedContent }
    return content
  }

  /// Reads a content type and checks it is `expected`, naming what was found otherwise.
  private static func expectContentType(
    _ reader: inout ASN1Reader, _ expected: [UInt8],
    otherwise failure: (String) -> RawReceiptError
  ) throws(RawReceiptError) {
    let (found, encoded) = try inEnvelope { () throws(ASN1Error) in
      let element = try reader.read(.objectIdentifier)
      return (element, reader.contents(of: element))
    }
    guard !encoded.elementsEqual(expected) else { return }
    let identifier = try inEnvelope { () throws(ASN1Error) in try reader.objectIdentifier(found) }
    throw failure(describe(identifier))
  }

  /// An identifier with the name of the PKCS#7 type it is, if it is one.
  private static func describe(_ identifier: ASN1ObjectIdentifier) -> String {
    let names = [
      "1.2.840.113549.1.7.1": "data", "1.2.840.113549.1.7.2": "signedData",
      "1.2.840.113549.1.7.3": "envelopedData", "1.2.840.113549.1.7.4": "signedAndEnvelopedData",
      "1.2.840.113549.1.7.5": "digestedData", "1.2.840.113549.1.7.6": "encryptedData",
    ]
    let dotted = identifier.description
    return names[dotted].map { "\(dotted) (\($0))" } ?? dotted
  }

  private static func inEnvelope<Value>(_ body: () throws(ASN1Error) -> Value)
    throws(RawReceiptError) -> Value
  {
    do {
      return try body()
    } catch {
      throw .malformedEnvelope(error)
    }
  }

  /// Reads the next element, which must have `tag`'s class and number in either form: BER lets
  /// strings be constructed from segments.
  @inline(__always)
  static func readAnyForm(of tag: ASN1Tag, from reader: inout ASN1Reader) throws(ASN1Error)
    -> ASN1Element
  {
    guard let element = try reader.next() else {
      throw .missingElement(offset: reader.offset(of: reader.position), expected: tag)
    }
    guard element.tag.tagClass == tag.tagClass, element.tag.number == tag.number else {
      throw .unexpectedTag(
        offset: reader.offset(of: element.startIndex), expected: tag, found: element.tag)
    }
    return element
  }
}
