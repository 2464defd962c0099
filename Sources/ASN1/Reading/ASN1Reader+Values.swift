// MARK: - Values

extension ASN1Reader {
  /// The value of an INTEGER (or of an element implicitly tagged as one).
  ///
  /// Redundant leading `00`/`FF` octets, which BER forbids but some encoders write, are
  /// accepted: they do not change the value.
  ///
  /// - Parameter element: A primitive element this reader (or its parent) returned.
  /// - Returns: The value.
  /// - Throws: ``ASN1Error/malformedInteger(offset:)`` for a constructed or empty element,
  ///   ``ASN1Error/integerOutOfRange(offset:)`` for a value beyond 64 bits.
  @inlinable @inline(__always)
  public func integer(_ element: ASN1Element) throws(ASN1Error) -> Int64 {
    // Indexes the input directly: a slice of it would retain the input for each integer.
    let range = element.contentRange
    guard !element.tag.isConstructed, !range.isEmpty else {
      throw .malformedInteger(offset: offset(of: element.startIndex))
    }
    var start = range.lowerBound
    while range.upperBound - start > 1 {
      let next = bytes[start + 1]
      let redundant =
        (bytes[start] == 0x00 && next & 0x80 == 0) || (bytes[start] == 0xFF && next & 0x80 != 0)
      guard redundant else { break }
      start += 1
    }
    guard range.upperBound - start <= 8 else {
      throw .integerOutOfRange(offset: offset(of: element.startIndex))
    }
    var value: Int64 = bytes[start] & 0x80 == 0 ? 0 : -1
    for index in start..<range.upperBound {
      value = value << 8 | Int64(bytes[index])
    }
    return value
  }

  /// The value of an OBJECT IDENTIFIER.
  ///
  /// - Parameter element: A primitive element this reader (or its parent) returned.
  /// - Returns: The identifier.
  /// - Throws: ``ASN1Error/malformedObjectIdentifier(offset:)`` if the contents are not a
  ///   minimal base-128 encoding of arcs that fit in 64 bits.
  public func objectIdentifier(_ element: ASN1Element) throws(ASN1Error) -> ASN1ObjectIdentifier {
    guard !element.tag.isConstructed,
      let identifier = ASN1ObjectIdentifier(encodedContents: contents(of: element))
    else {
      throw .malformedObjectIdentifier(offset: offset(of: element.startIndex))
    }
    return identifier
  }

  /// The octets of an OCTET STRING (or any string type): a slice of the input for the primitive
  /// form, the joined segments for the constructed form BER allows.
  ///
  /// - Parameter element: An element this reader (or its parent) returned.
  /// - Returns: The octets; a slice of ``bytes`` unless the string had several segments.
  /// - Throws: ``ASN1Error/unexpectedTag(offset:expected:found:)`` for a segment that is not an
  ///   OCTET STRING, or any error reading the segments.
  @inlinable @inline(__always)
  public func octetString(_ element: ASN1Element) throws(ASN1Error) -> ArraySlice<UInt8> {
    switch try stringOctets(element) {
    case .inPlace(let range): bytes[range]
    case .joined(let octets): octets[...]
    }
  }

  /// Where a string's octets are: in place for the primitive form or a constructed form with one
  /// segment, joined into new bytes otherwise.
  @usableFromInline
  enum StringOctets {
    case inPlace(Range<Int>)
    case joined([UInt8])
  }

  @inlinable @inline(__always)
  func stringOctets(_ element: ASN1Element) throws(ASN1Error) -> StringOctets {
    guard element.tag.isConstructed else { return .inPlace(element.contentRange) }
    // Segments may themselves be constructed; an explicit stack keeps nesting bounded by the
    // depth limit instead of the call stack.
    var stack = [try children(of: element)]
    var first: Range<Int>?
    var joined: [UInt8]?
    while var reader = stack.popLast() {
      guard let segment = try reader.next() else { continue }
      stack.append(reader)
      if segment.tag == .octetString {
        if let first {
          if joined == nil { joined = Array(bytes[first]) }
          joined?.append(contentsOf: bytes[segment.contentRange])
        } else {
          first = segment.contentRange
        }
      } else if segment.tag == ASN1Tag.octetString.constructed {
        stack.append(try reader.children(of: segment))
      } else {
        throw .unexpectedTag(
          offset: offset(of: segment.startIndex), expected: .octetString, found: segment.tag)
      }
    }
    if let joined { return .joined(joined) }
    return .inPlace(first ?? element.contentRange.lowerBound..<element.contentRange.lowerBound)
  }

  /// The text of a UTF8String.
  ///
  /// - Parameter element: An element this reader (or its parent) returned.
  /// - Returns: The text.
  /// - Throws: ``ASN1Error/invalidString(offset:encoding:)`` if the octets are not UTF-8, or an
  ///   error of ``octetString(_:)`` for a malformed constructed string.
  @inlinable @inline(__always)
  public func utf8String(_ element: ASN1Element) throws(ASN1Error) -> String {
    let octets = try octetString(element)
    // Decoding repairs ill-formed sequences, so the text equals the octets exactly when they
    // are valid. ASCII, which ids and product ids are, needs no comparison.
    let text = String(decoding: octets, as: UTF8.self)
    guard Self.isASCII(octets) || text.utf8.elementsEqual(octets) else {
      throw .invalidString(offset: offset(of: element.startIndex), encoding: "UTF-8")
    }
    return text
  }

  /// The text of an IA5String (ASCII).
  ///
  /// - Parameter element: An element this reader (or its parent) returned.
  /// - Returns: The text.
  /// - Throws: ``ASN1Error/invalidString(offset:encoding:)`` if an octet is not ASCII, or an
  ///   error of ``octetString(_:)`` for a malformed constructed string.
  @inlinable
  public func ia5String(_ element: ASN1Element) throws(ASN1Error) -> String {
    String(decoding: try ia5Octets(element), as: UTF8.self)
  }

  /// The octets of an IA5String, checked to be ASCII, without making a string of them.
  ///
  /// - Parameter element: An element this reader (or its parent) returned.
  /// - Returns: The octets; a slice of ``bytes`` unless the string had several segments.
  /// - Throws: ``ASN1Error/invalidString(offset:encoding:)`` if an octet is not ASCII, or an
  ///   error of ``octetString(_:)`` for a malformed constructed string.
  @inlinable @inline(__always)
  public func ia5Octets(_ element: ASN1Element) throws(ASN1Error) -> ArraySlice<UInt8> {
    let octets = try octetString(element)
    guard Self.isASCII(octets) else {
      throw .invalidString(offset: offset(of: element.startIndex), encoding: "ASCII")
    }
    return octets
  }

  /// Whether every octet is below 0x80.
  @inlinable
  static func isASCII(_ octets: ArraySlice<UInt8>) -> Bool {
    octets.withUnsafeBufferPointer { buffer in
      var combined: UInt8 = 0
      for octet in buffer { combined |= octet }
      return combined < 0x80
    }
  }

  // MARK: - Encapsulated encodings

  /// Runs `body` with a reader of the BER encoding carried inside an OCTET STRING, like the one
  /// ``encapsulated(in:)`` makes, but by narrowing this reader in place when the value is in one
  /// piece — no second reader, no extra retain of the input — and restoring it afterwards.
  ///
  /// - Parameters:
  ///   - element: An OCTET STRING this reader returned.
  ///   - body: Reads the carried encoding with the reader it is given.
  /// - Returns: What `body` returns.
  /// - Throws: ``ASN1Error/nestingTooDeep(offset:limit:)``, an error of ``octetString(_:)``,
  ///   or what `body` throws.
  @inlinable @inline(__always)
  public mutating func withEncapsulated<Result>(
    in element: ASN1Element, _ body: (inout ASN1Reader) throws(ASN1Error) -> Result
  ) throws(ASN1Error) -> Result {
    guard depth + 1 < maximumDepth else {
      throw .nestingTooDeep(
        offset: offset(of: element.contentRange.lowerBound), limit: maximumDepth)
    }
    switch try stringOctets(element) {
    case .inPlace(let range):
      return try withWindow(range, body)
    case .joined(let octets):
      var reader = ASN1Reader(
        sharing: octets[...], range: octets.indices, depth: depth + 1, maximumDepth: maximumDepth)
      return try body(&reader)
    }
  }

  /// A reader of the BER encoding carried inside an OCTET STRING, as PKCS#7 content and app
  /// receipt attributes carry theirs.
  ///
  /// When the value is in one piece the new reader shares this reader's bytes, so error offsets
  /// still count from the start of the outer input; when a constructed string has several
  /// segments they are joined into new bytes, and offsets count from the start of the value.
  ///
  /// - Parameter element: An OCTET STRING this reader (or its parent) returned.
  /// - Returns: A reader of the top-level elements of the carried encoding, one level deeper.
  /// - Throws: ``ASN1Error/nestingTooDeep(offset:limit:)``, or an error of ``octetString(_:)``.
  @inlinable
  public func encapsulated(in element: ASN1Element) throws(ASN1Error) -> ASN1Reader {
    guard depth + 1 < maximumDepth else {
      throw .nestingTooDeep(
        offset: offset(of: element.contentRange.lowerBound), limit: maximumDepth)
    }
    switch try stringOctets(element) {
    case .inPlace(let range):
      return ASN1Reader(sharing: bytes, range: range, depth: depth + 1, maximumDepth: maximumDepth)
    case .joined(let octets):
      return ASN1Reader(
        sharing: octets[...], range: octets.indices, depth: depth + 1, maximumDepth: maximumDepth)
    }
  }
}
