import ASN1
import Testing

@Suite("ASN1Reader")
struct ASN1ReaderTests {
  // MARK: - Well-formed input

  @Test("reads a DER structure: tags, short and long lengths, nested containers")
  func derStructure() throws {
    var writer = ASN1Writer()
    writer.writeConstructed(.sequence) { sequence in
      sequence.writeInteger(3)
      sequence.writeConstructed(.set) { set in
        set.writeUTF8String("com.example.app")
        set.writeIA5String("2024-06-01T08:30:00Z")
      }
      sequence.writeOctetString([UInt8](repeating: 0xAB, count: 300))
      sequence.writeNull()
    }
    let bytes = writer.bytes
    // 300 content octets need the long form with two length octets.
    #expect(bytes.contains(0x82))
    let description = try describeTree(bytes)
    #expect(
      description
        == "SEQUENCE{INTEGER 3,SET{UTF8String \"com.example.app\","
        + "IA5String \"2024-06-01T08:30:00Z\"},OCTET STRING "
        + String(repeating: "ab", count: 300) + ",NULL}")
  }

  @Test("BER with indefinite lengths reads exactly like the DER of the same value")
  func indefiniteMatchesDefinite() throws {
    func build(_ form: ASN1Writer.LengthForm) -> [UInt8] {
      var writer = ASN1Writer(lengthForm: form)
      writer.writeConstructed(.sequence) { outer in
        outer.writeConstructed(.contextSpecific(0)) { tagged in
          tagged.writeConstructed(.sequence) { inner in
            inner.writeInteger(-129)
            inner.writeConstructed(.sequence) { _ in }
          }
        }
        outer.writeObjectIdentifier(ASN1ObjectIdentifier("1.2.840.113549.1.7.1")!)
      }
      return writer.bytes
    }
    let der = build(.definite)
    let ber = build(.indefinite)
    #expect(Array(ber.prefix(2)) == [0x30, 0x80])
    #expect(Array(ber.suffix(2)) == [0x00, 0x00])
    #expect(try describeTree(ber) == describeTree(der))
    #expect(
      try describeTree(der)
        == "SEQUENCE{[0]{SEQUENCE{INTEGER -129,SEQUENCE{}}},OID 1.2.840.113549.1.7.1}")
  }

  @Test("an indefinite-length element's contents exclude its end-of-contents marker")
  func indefiniteElementRanges() throws {
    let bytes = hex("30 80 05 00 30 80 00 00 00 00 02 01 07")
    var reader = ASN1Reader(bytes)
    let outer = try #require(try reader.next())
    #expect(outer.hasIndefiniteLength)
    #expect(outer.contentRange == 2..<8)
    #expect(outer.endIndex == 10)
    var children = try reader.children(of: outer)
    #expect(try children.read(.null).contentRange == 4..<4)
    let empty = try children.read(.sequence)
    #expect(empty.hasIndefiniteLength && empty.contentRange.isEmpty)
    #expect(children.isAtEnd)
    #expect(try reader.integer(reader.read(.integer)) == 7)
    #expect(reader.isAtEnd)
  }

  @Test(
    "reads every tag class and high tag numbers",
    arguments: [
      (hex("1F 81 00 00"), ASN1Tag(.universal, number: 128, isConstructed: false)),
      (hex("5F 1F 00"), ASN1Tag(.application, number: 31, isConstructed: false)),
      (hex("BF 87 67 00"), ASN1Tag(.contextSpecific, number: 999, isConstructed: true)),
      (hex("C3 00"), ASN1Tag(.private, number: 3, isConstructed: false)),
      (hex("1F 8F FF FF FF 7F 00"), ASN1Tag(.universal, number: UInt32.max, isConstructed: false)),
    ])
  func tagForms(bytes: [UInt8], tag: ASN1Tag) throws {
    var reader = ASN1Reader(bytes)
    #expect(try reader.next()?.tag == tag)
    var writer = ASN1Writer()
    if tag.isConstructed {
      writer.writeConstructed(tag) { _ in }
    } else {
      writer.writePrimitive(tag, contents: [])
    }
    #expect(writer.bytes == bytes)
  }

  @Test("accepts non-minimal long-form lengths, which BER allows")
  func nonMinimalLength() throws {
    var reader = ASN1Reader(hex("04 84 00 00 00 02 61 62"))
    let element = try reader.read(.octetString)
    #expect(Array(reader.contents(of: element)) == [0x61, 0x62])
  }

  @Test("contents are slices of the input, not copies")
  func zeroCopy() throws {
    let bytes = hex("30 06 04 04 DE AD BE EF")
    var reader = ASN1Reader(bytes)
    var children = try reader.children(of: reader.read(.sequence))
    let octets = try children.octetString(children.read(.octetString))
    #expect(octets.indices == 4..<8)
    octets.withUnsafeBufferPointer { slice in
      bytes.withUnsafeBufferPointer { whole in
        #expect(slice.baseAddress == whole.baseAddress.map { $0 + 4 })
      }
    }
  }

  @Test("joins the segments of a constructed OCTET STRING, nested segments included")
  func segmentedOctetString() throws {
    // 24 80 { 04 02 'ab', 24 04 { 04 02 'cd' }, 04 00 } 00 00
    let bytes = hex("24 80 04 02 61 62 24 04 04 02 63 64 04 00 00 00")
    var reader = ASN1Reader(bytes)
    let element = try reader.read(ASN1Tag.octetString.constructed)
    #expect(Array(try reader.octetString(element)) == Array("abcd".utf8))
    #expect(try reader.utf8String(element) == "abcd")
  }

  @Test("a constructed OCTET STRING with one segment is still read in place")
  func singleSegmentInPlace() throws {
    let bytes = hex("24 80 04 03 02 01 05 00 00")
    var reader = ASN1Reader(bytes)
    let element = try reader.read(ASN1Tag.octetString.constructed)
    #expect(try reader.octetString(element).indices == 4..<7)
    var inner = try reader.encapsulated(in: element)
    #expect(try inner.integer(inner.read(.integer)) == 5)
  }

  @Test("errors inside an encapsulated value count offsets from the outer input")
  func encapsulatedOffsets() throws {
    let bytes = hex("30 07 02 01 01 04 02 02 00")
    var reader = ASN1Reader(bytes)
    var fields = try reader.children(of: reader.read(.sequence))
    _ = try fields.read(.integer)
    var inner = try fields.encapsulated(in: fields.read(.octetString))
    let element = try inner.read(.integer)
    #expect(throws: ASN1Error.malformedInteger(offset: 7)) { try inner.integer(element) }
  }

  @Test("readIfPresent consumes a matching element and leaves any other")
  func optionalElements() throws {
    var reader = ASN1Reader(hex("A0 00 02 01 01"))
    #expect(try reader.readIfPresent(.contextSpecific(1)) == nil)
    #expect(try reader.readIfPresent(.contextSpecific(0)) != nil)
    #expect(try reader.readIfPresent(.contextSpecific(0)) == nil)
    #expect(try reader.integer(reader.read(.integer)) == 1)
    #expect(try reader.readIfPresent(.integer) == nil)
    try reader.finish()
  }

  @Test("withChildren and withEncapsulated read in place and restore the reader")
  func scopedReading() throws {
    // SEQUENCE { INTEGER 1, OCTET STRING { INTEGER 2 } }, INTEGER 3
    var reader = ASN1Reader(hex("30 08 02 01 01 04 03 02 01 02 02 01 03"))
    let sequence = try reader.read(.sequence)
    let (first, carried) = try reader.withChildren(of: sequence) {
      fields throws(ASN1Error) -> (Int64, Int64) in
      let firstElement = try fields.read(.integer)
      let first = try fields.integer(firstElement)
      let octets = try fields.read(.octetString)
      let carried = try fields.withEncapsulated(in: octets) { inner throws(ASN1Error) in
        let element = try inner.read(.integer)
        try inner.finish()
        return try inner.integer(element)
      }
      try fields.finish()
      return (first, carried)
    }
    #expect(first == 1 && carried == 2)
    #expect(reader.depth == 0 && reader.position == 10)
    let last = try reader.read(.integer)
    #expect(try reader.integer(last) == 3)
    #expect(throws: ASN1Error.notConstructed(offset: 10, tag: .integer)) {
      try reader.withChildren(of: last) { _ throws(ASN1Error) in }
    }
  }

  @Test(
    "commonShape reads the usual headers and declines everything else",
    arguments: [
      ("02 01 05", UInt8(0x02), 2..<3), ("04 81 01 00", 0x04, 3..<4),
      ("30 82 00 01 05", 0x30, 4..<5),
    ])
  func commonShape(text: String, identifier: UInt8, contents: Range<Int>) throws {
    let bytes = hex(text)
    let shape = try #require(ASN1Reader.commonShape(in: bytes, at: 0, limit: bytes.count))
    #expect(shape.identifier == identifier && shape.contents == contents)
  }

  @Test(
    "commonShape declines high tags, long or indefinite lengths, overruns and end-of-contents",
    arguments: ["1F 81 00 00", "30 80 00 00", "04 83 00 00 01 00", "04 05 00", "00 00", "04"])
  func uncommonShapes(text: String) {
    let bytes = hex(text)
    #expect(ASN1Reader.commonShape(in: bytes, at: 0, limit: bytes.count) == nil)
    #expect(ASN1Reader.commonShape(in: bytes, at: 0, limit: bytes.count + 5) == nil)
  }

  // MARK: - Malformed input

  /// One malformed input and the exact error reading it all must give.
  struct Malformation: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var error: ASN1Error
    var testDescription: String { name }
  }

  static let malformations: [Malformation] = [
    .init(
      name: "header cut short", bytes: hex("30"),
      error: .truncated(offset: 0, needed: 2, available: 1)),
    .init(
      name: "long length cut short", bytes: hex("04 82 01"),
      error: .truncated(offset: 0, needed: 4, available: 3)),
    .init(
      name: "contents cut short", bytes: hex("30 05 02 01"),
      error: .truncated(offset: 0, needed: 7, available: 4)),
    .init(
      name: "indefinite length cut short", bytes: hex("30 80 05 00"),
      error: .truncated(offset: 0, needed: 6, available: 4)),
    .init(
      name: "length past its container", bytes: hex("30 03 04 05 41 42 43 44 45"),
      error: .lengthExceedsContainer(offset: 2, length: 5, available: 1)),
    .init(
      name: "header past its container", bytes: hex("30 01 04 00"),
      error: .lengthExceedsContainer(offset: 2, length: 2, available: 1)),
    .init(name: "reserved length octet", bytes: hex("04 FF"), error: .unsupportedLength(offset: 1)),
    .init(
      name: "nine length octets", bytes: hex("04 89 00 00 00 00 00 00 00 00 01 00"),
      error: .unsupportedLength(offset: 1)),
    .init(
      name: "length beyond Int.max", bytes: hex("04 88 80 00 00 00 00 00 00 00"),
      error: .unsupportedLength(offset: 1)),
    // Found by the hostile-input campaign (issue 11): the largest length Int holds, at the top
    // level and inside an indefinite-length container, once trapped computing `needed`.
    .init(
      name: "length of Int.max at the top level", bytes: hex("30 88 7F FF FF FF FF FF FF FF"),
      error: .truncated(offset: 0, needed: Int.max, available: 10)),
    .init(
      name: "length of Int.max inside an indefinite container",
      bytes: hex("30 80 04 88 7F FF FF FF FF FF FF FF 00 00"),
      error: .truncated(offset: 2, needed: Int.max, available: 12)),
    .init(
      name: "a length whose sum with its header overflows",
      bytes: hex("04 88 7F FF FF FF FF FF FF FA 41"),
      error: .truncated(offset: 0, needed: Int.max, available: 11)),
    .init(
      name: "indefinite length on a primitive", bytes: hex("04 80 00 00"),
      error: .indefiniteLengthOnPrimitive(offset: 0)),
    .init(name: "tag number padded", bytes: hex("1F 80 01 00"), error: .malformedTag(offset: 0)),
    .init(
      name: "tag number beyond 32 bits", bytes: hex("1F 90 80 80 80 00 00"),
      error: .tagNumberTooLarge(offset: 0)),
    .init(
      name: "end-of-contents missing before the container ends",
      bytes: hex("30 04 30 80 05 00 05 00"),
      error: .missingEndOfContents(offset: 2)),
    .init(
      name: "end-of-contents marker with a length", bytes: hex("30 80 00 01"),
      error: .malformedEndOfContents(offset: 2)),
    .init(
      name: "end-of-contents in a definite container", bytes: hex("30 02 00 00"),
      error: .unexpectedEndOfContents(offset: 2)),
    .init(
      name: "end-of-contents at the top level", bytes: hex("00 00"),
      error: .unexpectedEndOfContents(offset: 0)),
    .init(
      name: "tag zero with a length", bytes: hex("00 01 00"),
      error: .malformedEndOfContents(offset: 0)),
    .init(name: "empty INTEGER", bytes: hex("02 00"), error: .malformedInteger(offset: 0)),
    .init(
      name: "INTEGER beyond 64 bits", bytes: hex("02 09 01 00 00 00 00 00 00 00 00"),
      error: .integerOutOfRange(offset: 0)),
    .init(
      name: "empty OBJECT IDENTIFIER", bytes: hex("06 00"),
      error: .malformedObjectIdentifier(offset: 0)),
    .init(
      name: "OBJECT IDENTIFIER ending mid-arc", bytes: hex("06 02 2A 86"),
      error: .malformedObjectIdentifier(offset: 0)),
    .init(
      name: "OBJECT IDENTIFIER arc padded", bytes: hex("06 03 2A 80 01"),
      error: .malformedObjectIdentifier(offset: 0)),
    .init(
      name: "UTF8String that is not UTF-8", bytes: hex("30 04 0C 02 C3 28"),
      error: .invalidString(offset: 2, encoding: "UTF-8")),
    .init(
      name: "IA5String that is not ASCII", bytes: hex("16 01 E9"),
      error: .invalidString(offset: 0, encoding: "ASCII")),
    .init(
      name: "segment of another type in an OCTET STRING", bytes: hex("24 80 02 01 01 00 00"),
      error: .unexpectedTag(offset: 2, expected: .octetString, found: .integer)),
  ]

  @Test("every malformation gives its own error at its offset", arguments: malformations)
  func malformed(_ malformation: Malformation) {
    #expect(throws: malformation.error) { _ = try describeTree(malformation.bytes) }
  }

  @Test("deep nesting is refused when descending, whatever the length form")
  func nestingLimitWhenDescending() throws {
    var writer = ASN1Writer()
    func nest(_ writer: inout ASN1Writer, _ levels: Int) {
      guard levels > 0 else { return writer.writeNull() }
      writer.writeConstructed(.sequence) { nest(&$0, levels - 1) }
    }
    nest(&writer, 8)
    #expect(try describeTree(writer.bytes, maximumDepth: 9).hasSuffix("{NULL}}}}}}}}"))
    #expect(throws: ASN1Error.nestingTooDeep(offset: 16, limit: 8)) {
      _ = try describeTree(writer.bytes, maximumDepth: 8)
    }
  }

  @Test("deep indefinite nesting is refused while the end of the outer element is searched")
  func nestingLimitWhileScanning() {
    // 100 000 nested indefinite-length SEQUENCEs, properly closed: the scan must stop at the
    // limit rather than count all of them.
    let levels = 100_000
    let bytes =
      Array([[UInt8]](repeating: [0x30, 0x80], count: levels).joined())
      + [UInt8](repeating: 0x00, count: 2 * levels)
    var reader = ASN1Reader(bytes)
    #expect(throws: ASN1Error.nestingTooDeep(offset: 64, limit: 32)) { _ = try reader.next() }
  }

  @Test("read names the tag it expected and the one it found")
  func unexpectedTag() {
    var reader = ASN1Reader(hex("31 00"))
    #expect(throws: ASN1Error.unexpectedTag(offset: 0, expected: .sequence, found: .set)) {
      try reader.read(.sequence)
    }
    var empty = ASN1Reader([])
    #expect(throws: ASN1Error.missingElement(offset: 0, expected: .integer)) {
      try empty.read(.integer)
    }
  }

  @Test("finish names what is left over")
  func trailingData() throws {
    var reader = ASN1Reader(hex("05 00 05 00"))
    _ = try reader.read(.null)
    #expect(throws: ASN1Error.trailingData(offset: 2, found: .null)) { try reader.finish() }
  }

  @Test("children refuses a primitive element")
  func childrenOfPrimitive() throws {
    var reader = ASN1Reader(hex("04 00"))
    let element = try reader.read(.octetString)
    #expect(throws: ASN1Error.notConstructed(offset: 0, tag: .octetString)) {
      try reader.children(of: element)
    }
  }

  @Test("every error message names the byte offset")
  func messagesNameOffsets() {
    for malformation in Self.malformations {
      let error = malformation.error
      #expect(error.description.contains("byte \(error.offset)"), "\(error)")
    }
  }
}
