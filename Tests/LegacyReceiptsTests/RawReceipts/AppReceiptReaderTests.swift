import ASN1
import Chronology
import CryptoSupport
import Testing

@testable import LegacyReceipts

@Suite("AppReceiptReader")
struct AppReceiptReaderTests {
  typealias Fixtures = ReceiptFixtures

  // MARK: - Well-formed receipts

  @Test(
    "reads back every field of a signed receipt, DER or BER with indefinite lengths",
    arguments: [PKCS7SignedData.Encoding.der, .indefiniteLengthBER], [0, 1, 7])
  func roundTrip(encoding: PKCS7SignedData.Encoding, purchases: Int) throws {
    let receipt = Fixtures.receipt(purchases: purchases)
    let bytes = try Fixtures.signed(receipt, encoding)
    #expect((bytes[1] == 0x80) == (encoding == .indefiniteLengthBER))
    #expect(try AppReceiptReader.read(bytes) == receipt)
    #expect(try AppReceiptReader.read(base64: Fixtures.base64(bytes)) == receipt)
  }

  @Test("returns every id, not only the first: distinct original ids in receipt order")
  func everyId() throws {
    let bytes = try Fixtures.signed(Fixtures.receipt(purchases: 50), .indefiniteLengthBER)
    let receipt = try AppReceiptReader.read(bytes)
    #expect(receipt.inAppPurchases.count == 50)
    #expect(receipt.originalTransactionIds == ["1000000700000000", "1000000700000001"])
    #expect(receipt.transactionIds.count == 50)
    #expect(receipt.transactionIds.last == "1000000800000049")
  }

  @Test("a receipt without purchases has no ids but keeps its bundle id and creation date")
  func noPurchases() throws {
    let receipt = try AppReceiptReader.read(Fixtures.signed(Fixtures.receipt(purchases: 0), .der))
    #expect(receipt.inAppPurchases.isEmpty && receipt.originalTransactionIds.isEmpty)
    #expect(receipt.bundleId == "com.example.app")
    #expect(receipt.creationDate == Fixtures.created)
  }

  @Test("reads Xcode's shape: a BER envelope with segmented content around a DER payload")
  func xcodeShape() throws {
    let payload = Fixtures.set([
      Fixtures.attribute(0) { $0.writeUTF8String("Xcode") },
      Fixtures.attribute(2) { $0.writeUTF8String("com.example.app") },
      Fixtures.attribute(12) { $0.writeIA5String("2021-04-16T10:59:33+0800") },
      Fixtures.attribute(17) {
        $0.writeEncoded(
          Fixtures.set([
            Fixtures.attribute(1702) { $0.writeUTF8String("com.example.coins") },
            Fixtures.attribute(1703) { $0.writeUTF8String("86") },
            Fixtures.attribute(1704) { $0.writeIA5String("2021-04-16T10:59:33Z") },
          ]))
      },
      Fixtures.attribute(21) { $0.writeIA5String("4001-01-01T08:00:00+0800") },
    ])
    let envelope = Fixtures.envelope(payload: payload, lengthForm: .indefinite, segmentLength: 64)
    let receipt = try AppReceiptReader.read(envelope)
    #expect(receipt.receiptType == "Xcode")
    #expect(receipt.creationDate == Timestamp(parsing: "2021-04-16T02:59:33Z"))
    #expect(receipt.expirationDate == Timestamp(parsing: "4001-01-01T00:00:00Z"))
    #expect(receipt.inAppPurchases.map(\.transactionId) == ["86"])
    // Xcode's purchases have no original transaction id: nothing to seed from.
    #expect(receipt.originalTransactionIds.isEmpty)
  }

  @Test("empty dates mean none; unknown attributes are skipped")
  func emptyDatesAndUnknownTypes() throws {
    let payload = Fixtures.payload(inAppAttributes: [
      Fixtures.attribute(1705) { $0.writeUTF8String("1000000000000001") },
      Fixtures.attribute(1708) { $0.writeIA5String("") },
      Fixtures.attribute(1712) { $0.writeIA5String("") },
      Fixtures.attribute(1799) { $0.writeNull() },
      Fixtures.attribute(9) { $0.writeInteger(5) },
    ])
    let receipt = try AppReceiptReader.read(Fixtures.envelope(payload: payload))
    #expect(
      receipt.inAppPurchases == [InAppRecord(originalTransactionId: "1000000000000001")])
  }

  @Test("reads an in-app purchase whose value BER splits into segments")
  func segmentedInAppValue() throws {
    var inApp = ASN1Writer()
    inApp.writeConstructed(.sequence) { attribute in
      attribute.writeInteger(17)
      attribute.writeInteger(1)
      attribute.writeSegmentedOctetString(
        Fixtures.set([Fixtures.attribute(1705) { $0.writeUTF8String("77") }]), segmentLength: 5)
    }
    let receipt = try AppReceiptReader.read(
      Fixtures.envelope(payload: Fixtures.set([inApp.bytes])))
    #expect(receipt.originalTransactionIds == ["77"])
  }

  @Test("the fast path reads the payloads Apple and Xcode write, as the general reader does")
  func fastPathTakesCommonPayloads() throws {
    let receipt = Fixtures.receipt(purchases: 20)
    let payload = try AppReceiptBuilder.payload(for: receipt)
    let fast = try #require(AppReceiptFastPath.read(payload[...]))
    #expect(fast == receipt)
    #expect(try AppReceiptReader.readPayload(payload[...], usesFastPath: false) == receipt)
    // Indefinite lengths are BER's, not the common shape: the general reader takes them.
    let indefinite = try AppReceiptBuilder.payload(for: receipt, lengthForm: .indefinite)
    #expect(AppReceiptFastPath.read(indefinite[...]) == nil)
    #expect(try AppReceiptReader.readPayload(indefinite[...]) == receipt)
  }

  @Test(
    "purchases outside the fast path's shape read the same through the general reader",
    arguments: [
      ("a redundant sign octet in an INTEGER", Int64(1701), hexBytes("02 02 00 05")),
      ("a product id that is not ASCII", 1702, hexBytes("0C 02 C3 A9")),
      (
        "a date with fractions of a second", 1704,
        [0x16, 24] + Array("2024-06-01T08:30:00.250Z".utf8)
      ),
      ("a long-form length", 1705, hexBytes("0C 81 02 34 32")),
    ])
  func uncommonShapes(name: String, type: Int64, value: [UInt8]) throws {
    let envelope = Fixtures.envelope(
      payload: Fixtures.payload(inAppAttributes: [
        Fixtures.attribute(type) { $0.writeEncoded(value) },
        Fixtures.attribute(1703) { $0.writeUTF8String("1000000000000002") },
      ]))
    let receipt = try AppReceiptReader.read(envelope)
    #expect(receipt == (try AppReceiptReader.readWithoutFastPath(envelope)), "\(name)")
    let purchase = try #require(receipt.inAppPurchases.first)
    #expect(purchase.transactionId == "1000000000000002")
    switch type {
    case 1701: #expect(purchase.quantity == 5)
    case 1702: #expect(purchase.productId == "é")
    case 1704: #expect(purchase.purchaseDate == Timestamp(millisecondsSince1970: 1_717_230_600_250))
    default: #expect(purchase.originalTransactionId == "42")
    }
  }

  @Test(
    "receipt dates in every form Apple and Xcode write",
    arguments: [
      ("2024-06-01T08:30:00Z", Int64(1_717_230_600_000)),
      ("2024-06-01T16:30:00+0800", 1_717_230_600_000),
      ("2024-06-01T03:30:00-05:00", 1_717_230_600_000),
      ("2024-06-01T08:30:00.250Z", 1_717_230_600_250),
    ])
  func dates(text: String, milliseconds: Int64) throws {
    let envelope = Fixtures.envelope(
      payload: Fixtures.set([Fixtures.attribute(12) { $0.writeIA5String(text) }]))
    #expect(
      try AppReceiptReader.read(envelope).creationDate
        == Timestamp(millisecondsSince1970: milliseconds))
  }

  @Test(
    "web order line item ids print as verifyReceipt writes them",
    arguments: [Int64(0), 7, -12, 1_000_000_050_000_000, Int64.max, Int64.min])
  func decimalText(value: Int64) {
    #expect(DecimalText.string(value) == String(value))
  }

  // MARK: - Malformed receipts

  /// One damaged receipt and the exact error reading it must give.
  struct Malformation: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var error: RawReceiptError
    var testDescription: String { name }
  }

  static let validPayload = Fixtures.payload(inAppAttributes: [
    Fixtures.attribute(1705) { $0.writeUTF8String("1000000000000001") }
  ])

  static var malformations: [Malformation] {
    let envelope = Fixtures.envelope(payload: validPayload)
    let deep =
      Array([[UInt8]](repeating: [0x31, 0x80], count: 40).joined())
      + [UInt8](repeating: 0, count: 80)
    return [
      .init(
        name: "truncated receipt", bytes: Array(envelope.prefix(40)),
        error: .malformedEnvelope(
          .truncated(offset: 0, needed: envelope.count, available: 40))),
      .init(
        name: "truncated indefinite-length receipt",
        bytes: Array(Fixtures.envelope(payload: validPayload, lengthForm: .indefinite).dropLast(4)),
        error: .malformedEnvelope(
          .truncated(
            offset: 0,
            needed: Fixtures.envelope(payload: validPayload, lengthForm: .indefinite).count - 2,
            available: Fixtures.envelope(payload: validPayload, lengthForm: .indefinite).count - 4))
      ),
      .init(
        name: "outer SET instead of SEQUENCE", bytes: [0x31] + envelope.dropFirst(),
        error: .malformedEnvelope(.unexpectedTag(offset: 0, expected: .sequence, found: .set))),
      .init(
        name: "wrong outer type (envelopedData)",
        bytes: Fixtures.envelope(
          payload: validPayload, contentType: ASN1ObjectIdentifier("1.2.840.113549.1.7.3")!),
        error: .notSignedData(contentType: "1.2.840.113549.1.7.3 (envelopedData)")),
      .init(
        name: "signed content that is not data",
        bytes: Fixtures.envelope(
          payload: validPayload, encapsulatedType: ASN1ObjectIdentifier("1.2.3.4")!),
        error: .notDataContent(contentType: "1.2.3.4")),
      .init(
        name: "detached content", bytes: Fixtures.envelope(payload: nil),
        error: .detachedContent),
      .init(
        name: "payload is a SEQUENCE, not a SET",
        bytes: Fixtures.envelope(payload: [0x30] + validPayload.dropFirst()),
        error: .malformedPayload(.unexpectedTag(offset: 0, expected: .set, found: .sequence))),
      .init(
        name: "attribute value is an INTEGER, not an OCTET STRING",
        bytes: Fixtures.envelope(
          payload: Fixtures.set([hexBytes("30 09 02 01 02 02 01 01 02 01 05")])),
        error: .malformedPayload(
          .unexpectedTag(offset: 10, expected: .octetString, found: .integer))),
      .init(
        name: "length past the end of its container",
        bytes: Fixtures.envelope(
          payload: Fixtures.set([
            Fixtures.attribute(17) { $0.writeEncoded(hexBytes("31 03 30 09 02")) }
          ])),
        error: .malformedInAppPurchase(
          index: 1, .lengthExceedsContainer(offset: 14, length: 9, available: 1))),
      .init(
        name: "excessive nesting",
        bytes: Fixtures.envelope(
          payload: Fixtures.set([Fixtures.attribute(17) { $0.writeEncoded(deep) }])),
        error: .malformedInAppPurchase(index: 1, .nestingTooDeep(offset: 75, limit: 32))),
      .init(
        name: "original transaction id that is not UTF-8",
        bytes: Fixtures.envelope(
          payload: Fixtures.payload(inAppAttributes: [
            Fixtures.attribute(1705) {
              $0.writePrimitive(.utf8String, contents: [0x31, 0xC3, 0x28])
            }
          ])),
        error: .malformedField(
          .inAppPurchase(index: 1, .originalTransactionId),
          .invalidString(offset: 25, encoding: "UTF-8"))),
      .init(
        name: "transaction id that is not digits",
        bytes: Fixtures.envelope(
          payload: Fixtures.payload(inAppAttributes: [
            Fixtures.attribute(1703) { $0.writeUTF8String("1000-0000") }
          ])),
        error: .invalidTransactionId(.inAppPurchase(index: 1, .transactionId), value: "1000-0000")),
      .init(
        name: "bundle id of the wrong type",
        bytes: Fixtures.envelope(
          payload: Fixtures.set([Fixtures.attribute(2) { $0.writeInteger(7) }])),
        error: .malformedField(
          .appReceipt(.bundleId),
          .unexpectedTag(offset: 12, expected: .utf8String, found: .integer))),
      .init(
        name: "date that is not a date",
        bytes: Fixtures.envelope(
          payload: Fixtures.set([Fixtures.attribute(12) { $0.writeIA5String("yesterday") }])),
        error: .invalidDate(.appReceipt(.creationDate), text: "yesterday")),
      .init(
        name: "bytes after the envelope", bytes: envelope + [0x05, 0x00],
        error: .malformedEnvelope(.trailingData(offset: envelope.count, found: .null))),
    ]
  }

  @Test("every malformation gives its own precise error", arguments: malformations)
  func malformed(_ malformation: Malformation) {
    #expect(throws: malformation.error) { try AppReceiptReader.read(malformation.bytes) }
  }

  @Test("the hand-made sample's cut-short receipt is reported as truncated, with sizes")
  func sampleReceipt() throws {
    let base64 =
      "MIITQwYJKoZIhvcNAQcCoIITNDCCEzACAQExCzAJBgUrDgMCGgUAMIIC5AYJKoZIhvcNAQcBQwYJKoZIhvcNAQcC"
      + "oIITNDCCEzACAQExCzAJBgUrDgMCGgUAMIIC5AYJKoZIhvcNAQcBQwYJKoZIhvcNAQcCoIITNDCCEzACAQExCzAJ"
      + "BgUrDgMCGgUAMIIC5AYJKoZIhvcNAQcB"
    #expect(
      throws: RawReceiptError.malformedEnvelope(.truncated(offset: 0, needed: 4935, available: 156))
    ) {
      try AppReceiptReader.read(base64: base64)
    }
  }

  @Test("every error message names the damage")
  func messages() {
    for malformation in Self.malformations {
      #expect(malformation.error.description.count > 20, "\(malformation.name)")
    }
    #expect(
      RawReceiptError.malformedField(
        .inAppPurchase(index: 2, .originalTransactionId),
        .invalidString(offset: 19, encoding: "UTF-8")
      ).description
        == "the original transaction id (type 1705) of in-app purchase 2 is malformed: the "
        + "string at byte 19 is not valid UTF-8")
  }
}

/// Bytes from hex text, spaces ignored.
func hexBytes(_ text: String) -> [UInt8] {
  let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") })
  return stride(from: 0, to: digits.count, by: 2).map { index in
    UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) ?? 0
  }
}
