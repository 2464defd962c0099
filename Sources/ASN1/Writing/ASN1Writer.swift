/// Writes BER or DER: definite lengths (as DER requires) or indefinite lengths for every
/// constructed value (as BER allows and Xcode's receipts use).
///
/// The writer encodes what it is given and checks nothing about meaning; with definite lengths
/// it follows DER's length and integer rules, but writes the elements of a SET in the order
/// given rather than sorting them.
///
/// ```swift
/// var writer = ASN1Writer()
/// writer.writeConstructed(.sequence) { fields in
///   fields.writeInteger(1)
///   fields.writeUTF8String("com.example.app")
/// }
/// let der = writer.bytes
/// ```
public struct ASN1Writer: Sendable {
  /// How the lengths of constructed values are written.
  public enum LengthForm: Sendable, Hashable {
    /// The number of content octets, before the contents (DER's only form).
    case definite
    /// `0x80` before the contents and the end-of-contents marker `00 00` after them.
    case indefinite
  }

  /// The bytes written so far.
  public private(set) var bytes: [UInt8] = []

  /// How constructed values are written.
  public let lengthForm: LengthForm

  /// Creates an empty writer.
  ///
  /// - Parameter lengthForm: How constructed values are written; primitive values always have
  ///   definite lengths.
  public init(lengthForm: LengthForm = .definite) {
    self.lengthForm = lengthForm
  }

  // MARK: - Elements

  /// Writes a primitive element.
  ///
  /// - Parameters:
  ///   - tag: The element's tag; its constructed bit is cleared.
  ///   - contents: The content octets.
  public mutating func writePrimitive(_ tag: ASN1Tag, contents: some Collection<UInt8>) {
    writeIdentifier(ASN1Tag(tag.tagClass, number: tag.number, isConstructed: false))
    writeLength(contents.count)
    bytes.append(contentsOf: contents)
  }

  /// Writes a constructed element whose contents `body` writes.
  ///
  /// - Parameters:
  ///   - tag: The element's tag; its constructed bit is set.
  ///   - body: Writes the contents into the writer it is given.
  /// - Throws: What `body` throws.
  public mutating func writeConstructed<Failure: Error>(
    _ tag: ASN1Tag, _ body: (inout ASN1Writer) throws(Failure) -> Void
  ) throws(Failure) {
    writeIdentifier(tag.constructed)
    switch lengthForm {
    case .indefinite:
      bytes.append(0x80)
      try body(&self)
      bytes.append(contentsOf: [0x00, 0x00])
    case .definite:
      // The length comes first but is known last: write the contents apart, then both.
      var contents = ASN1Writer(lengthForm: lengthForm)
      try body(&contents)
      writeLength(contents.bytes.count)
      bytes.append(contentsOf: contents.bytes)
    }
  }

  /// Appends bytes that already hold complete encoded elements.
  ///
  /// - Parameter encoded: One or more encoded elements.
  public mutating func writeEncoded(_ encoded: some Sequence<UInt8>) {
    bytes.append(contentsOf: encoded)
  }

  // MARK: - Values

  /// Writes an INTEGER in the fewest octets.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - tag: The tag to write, for implicitly tagged integers.
  public mutating func writeInteger(_ value: Int64, tag: ASN1Tag = .integer) {
    var octets: [UInt8] = []
    var rest = value
    repeat {
      octets.append(UInt8(truncatingIfNeeded: rest))
      rest >>= 8
      // Stop once the remaining octets would only repeat the sign held in the last one.
    } while !((rest == 0 && octets[octets.count - 1] & 0x80 == 0)
      || (rest == -1 && octets[octets.count - 1] & 0x80 != 0))
    writePrimitive(tag, contents: octets.reversed())
  }

  /// Writes an OCTET STRING in primitive form.
  ///
  /// - Parameter contents: The octets.
  public mutating func writeOctetString(_ contents: some Collection<UInt8>) {
    writePrimitive(.octetString, contents: contents)
  }

  /// Writes an OCTET STRING in BER's constructed form: primitive segments of at most
  /// `segmentLength` octets inside a constructed element, as streaming encoders write them.
  ///
  /// - Parameters:
  ///   - contents: The octets.
  ///   - segmentLength: The longest segment; at least 1.
  public mutating func writeSegmentedOctetString(
    _ contents: some Collection<UInt8>, segmentLength: Int
  ) {
    let octets = Array(contents)
    let step = max(segmentLength, 1)
    writeConstructed(.octetString) { segments in
      for start in stride(from: 0, to: octets.count, by: step) {
        segments.writeOctetString(octets[start..<min(start + step, octets.count)])
      }
    }
  }

  /// Writes a UTF8String.
  ///
  /// - Parameter text: The text.
  public mutating func writeUTF8String(_ text: String) {
    writePrimitive(.utf8String, contents: Array(text.utf8))
  }

  /// Writes an IA5String; the caller supplies ASCII text.
  ///
  /// - Parameter text: The text, ASCII only.
  public mutating func writeIA5String(_ text: String) {
    writePrimitive(.ia5String, contents: Array(text.utf8))
  }

  /// Writes an OBJECT IDENTIFIER.
  ///
  /// - Parameter identifier: The identifier.
  public mutating func writeObjectIdentifier(_ identifier: ASN1ObjectIdentifier) {
    writePrimitive(.objectIdentifier, contents: identifier.encodedContents)
  }

  /// Writes NULL.
  public mutating func writeNull() {
    writePrimitive(.null, contents: [])
  }

  // MARK: - Headers

  private mutating func writeIdentifier(_ tag: ASN1Tag) {
    let leading = tag.tagClass.rawValue << 6 | (tag.isConstructed ? 0x20 : 0)
    guard tag.number >= 0x1F else {
      bytes.append(leading | UInt8(tag.number))
      return
    }
    bytes.append(leading | 0x1F)
    var groups: [UInt8] = [UInt8(tag.number & 0x7F)]
    var rest = tag.number >> 7
    while rest > 0 {
      groups.append(UInt8(rest & 0x7F) | 0x80)
      rest >>= 7
    }
    bytes.append(contentsOf: groups.reversed())
  }

  private mutating func writeLength(_ length: Int) {
    guard length >= 0x80 else {
      bytes.append(UInt8(length))
      return
    }
    var octets: [UInt8] = []
    var rest = length
    while rest > 0 {
      octets.append(UInt8(rest & 0xFF))
      rest >>= 8
    }
    bytes.append(0x80 | UInt8(octets.count))
    bytes.append(contentsOf: octets.reversed())
  }
}
