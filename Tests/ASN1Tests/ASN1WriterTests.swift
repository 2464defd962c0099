import ASN1
import Testing

@Suite("ASN1Writer")
struct ASN1WriterTests {
  @Test(
    "integers take the fewest two's-complement octets and read back",
    arguments: [
      (Int64(0), "02 01 00"), (127, "02 01 7F"), (128, "02 02 00 80"), (256, "02 02 01 00"),
      (-1, "02 01 FF"), (-128, "02 01 80"), (-129, "02 02 FF 7F"),
      (1_000_000_712_345_678, "02 07 03 8D 7E CF 3C 08 4E"),
      (Int64.max, "02 08 7F FF FF FF FF FF FF FF"), (Int64.min, "02 08 80 00 00 00 00 00 00 00"),
    ])
  func integers(value: Int64, encoding: String) throws {
    var writer = ASN1Writer()
    writer.writeInteger(value)
    #expect(writer.bytes == hex(encoding))
    var reader = ASN1Reader(writer.bytes)
    #expect(try reader.integer(reader.read(.integer)) == value)
  }

  @Test("redundant leading octets, which some encoders write, do not change an INTEGER's value")
  func redundantIntegerOctets() throws {
    var positive = ASN1Reader(hex("02 03 00 00 05"))
    #expect(try positive.integer(positive.read(.integer)) == 5)
    var negative = ASN1Reader(hex("02 03 FF FF 80"))
    #expect(try negative.integer(negative.read(.integer)) == -128)
    var wide = ASN1Reader(hex("02 09 00 7F FF FF FF FF FF FF FF"))
    #expect(try wide.integer(wide.read(.integer)) == Int64.max)
  }

  @Test(
    "lengths switch to the long form at 128 octets",
    arguments: [
      (0, "04 00"), (127, "04 7F"), (128, "04 81 80"), (255, "04 81 FF"), (256, "04 82 01 00"),
    ]
  )
  func lengths(count: Int, header: String) throws {
    var writer = ASN1Writer()
    writer.writeOctetString([UInt8](repeating: 7, count: count))
    #expect(Array(writer.bytes.prefix(hex(header).count)) == hex(header))
    #expect(writer.bytes.count == hex(header).count + count)
  }

  @Test("indefinite lengths wrap every constructed value; primitives keep definite lengths")
  func indefiniteForm() {
    var writer = ASN1Writer(lengthForm: .indefinite)
    writer.writeConstructed(.set) { set in
      set.writeConstructed(.sequence) { sequence in sequence.writeInteger(1) }
    }
    #expect(writer.bytes == hex("31 80 30 80 02 01 01 00 00 00 00"))
  }

  @Test("a segmented OCTET STRING splits its octets and reads back whole")
  func segmentedOctetString() throws {
    var writer = ASN1Writer(lengthForm: .indefinite)
    writer.writeSegmentedOctetString(Array("abcde".utf8), segmentLength: 2)
    #expect(writer.bytes == hex("24 80 04 02 61 62 04 02 63 64 04 01 65 00 00"))
    var reader = ASN1Reader(writer.bytes)
    let element = try reader.read(ASN1Tag.octetString.constructed)
    #expect(Array(try reader.octetString(element)) == Array("abcde".utf8))
  }

  @Test(
    "object identifiers encode, decode and print in dotted form",
    arguments: [
      ("1.2.840.113549.1.7.2", "06 09 2A 86 48 86 F7 0D 01 07 02"),
      ("2.999.3", "06 03 88 37 03"),
      ("0.39", "06 01 27"),
    ])
  func objectIdentifiers(dotted: String, encoding: String) throws {
    let identifier = try #require(ASN1ObjectIdentifier(dotted))
    var writer = ASN1Writer()
    writer.writeObjectIdentifier(identifier)
    #expect(writer.bytes == hex(encoding))
    var reader = ASN1Reader(writer.bytes)
    #expect(try reader.objectIdentifier(reader.read(.objectIdentifier)) == identifier)
    #expect(identifier.description == dotted)
  }

  @Test(
    "impossible dotted identifiers are refused",
    arguments: ["", "1", "3.1", "1.40", "1..2", "1.2.x", "1.2.99999999999999999999999"])
  func invalidDottedIdentifiers(text: String) {
    #expect(ASN1ObjectIdentifier(text) == nil)
  }

  @Test("pre-encoded elements are appended as they are")
  func encodedElements() throws {
    var inner = ASN1Writer()
    inner.writeUTF8String("é")
    var writer = ASN1Writer()
    writer.writeConstructed(.sequence) { $0.writeEncoded(inner.bytes) }
    #expect(writer.bytes == hex("30 04 0C 02 C3 A9"))
    #expect(try describeTree(writer.bytes) == "SEQUENCE{UTF8String \"é\"}")
  }

  @Test("tags describe themselves as people write them")
  func tagDescriptions() {
    #expect(ASN1Tag.sequence.description == "SEQUENCE")
    #expect(ASN1Tag.octetString.constructed.description == "OCTET STRING (constructed)")
    #expect(ASN1Tag.contextSpecific(0).description == "[0]")
    #expect(ASN1Tag.contextSpecific(2, isConstructed: false).description == "[2] (primitive)")
    #expect(ASN1Tag(.universal, number: 99, isConstructed: false).description == "UNIVERSAL 99")
  }
}
