/// A bounded reader of BER and DER: it walks the elements of one container at a time, without
/// copying the bytes and without recursion, so hostile input can neither crash it nor make it
/// loop.
///
/// Every length is checked against the bytes that remain in the enclosing element before it is
/// used; nesting is limited to ``maximumDepth`` levels, counted both when a caller descends with
/// ``children(of:)`` and when the end of an indefinite-length element is searched for; each
/// failure is an ``ASN1Error`` carrying the byte offset.
///
/// ```swift
/// var top = ASN1Reader(bytes)
/// let sequence = try top.read(.sequence)
/// try top.finish()
/// var fields = try top.children(of: sequence)
/// let version = try fields.integer(fields.read(.integer))
/// ```
///
/// An indefinite-length element's end is found when its header is read, by a flat scan over the
/// headers of its contents (skipping definite-length parts whole). A caller that descends into
/// nested indefinite-length elements rescans the inner ones, so the work is at most the input's
/// header count times the nesting limit.
public struct ASN1Reader: Sendable {
  /// The whole input; child readers share it.
  public let bytes: ArraySlice<UInt8>

  /// The index of the next element this reader returns.
  public private(set) var position: Int

  /// The index where this reader's container ends.
  public let limit: Int

  /// How many elements enclose the elements this reader returns (0 for the input's top level).
  public let depth: Int

  /// The deepest nesting accepted; deeper elements fail with ``ASN1Error/nestingTooDeep(offset:limit:)``.
  public let maximumDepth: Int

  /// The nesting limit used when none is given: far deeper than PKCS#7, X.509 or app receipts
  /// go (about ten levels), and far shallower than anything that could exhaust memory.
  public static let defaultMaximumDepth = 32

  /// Creates a reader of the top-level elements of `bytes`.
  ///
  /// - Parameters:
  ///   - bytes: The input; offsets in errors count from its first byte.
  ///   - maximumDepth: The deepest nesting accepted.
  public init(_ bytes: ArraySlice<UInt8>, maximumDepth: Int = defaultMaximumDepth) {
    self.bytes = bytes
    self.position = bytes.startIndex
    self.limit = bytes.endIndex
    self.depth = 0
    self.maximumDepth = maximumDepth
  }

  /// Creates a reader of the top-level elements of `bytes`.
  ///
  /// - Parameters:
  ///   - bytes: The input; offsets in errors count from its first byte.
  ///   - maximumDepth: The deepest nesting accepted.
  public init(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) {
    self.init(bytes[...], maximumDepth: maximumDepth)
  }

  /// A reader of `range` of `bytes`, `depth` levels down.
  init(sharing bytes: ArraySlice<UInt8>, range: Range<Int>, depth: Int, maximumDepth: Int) {
    self.bytes = bytes
    self.position = range.lowerBound
    self.limit = range.upperBound
    self.depth = depth
    self.maximumDepth = maximumDepth
  }

  // MARK: - Walking

  /// Whether every element of the container has been read.
  public var isAtEnd: Bool { position >= limit }

  /// Reads the next element of the container, or returns `nil` at its end.
  ///
  /// - Returns: The element, whose contents are not yet checked; or `nil`.
  /// - Throws: ``ASN1Error`` if the header is malformed or the element overruns its container.
  public mutating func next() throws(ASN1Error) -> ASN1Element? {
    guard position < limit else { return nil }
    let element = try element(at: position)
    position = element.endIndex
    return element
  }

  /// Reads the next element and checks its tag.
  ///
  /// - Parameter tag: The tag the element must have.
  /// - Returns: The element.
  /// - Throws: ``ASN1Error/missingElement(offset:expected:)`` at the container's end,
  ///   ``ASN1Error/unexpectedTag(offset:expected:found:)`` for another tag, or any error of
  ///   ``next()``.
  public mutating func read(_ tag: ASN1Tag) throws(ASN1Error) -> ASN1Element {
    guard let element = try next() else {
      throw .missingElement(offset: offset(of: position), expected: tag)
    }
    guard element.tag == tag else {
      throw .unexpectedTag(
        offset: offset(of: element.startIndex), expected: tag, found: element.tag)
    }
    return element
  }

  /// Reads the next element if it has `tag`, and otherwise leaves the reader where it is: for
  /// OPTIONAL fields.
  ///
  /// - Parameter tag: The tag of the optional element.
  /// - Returns: The element, or `nil` if the container ends or the next element has another tag.
  /// - Throws: ``ASN1Error`` if the next element is malformed.
  public mutating func readIfPresent(_ tag: ASN1Tag) throws(ASN1Error) -> ASN1Element? {
    guard position < limit else { return nil }
    let element = try element(at: position)
    guard element.tag == tag else { return nil }
    position = element.endIndex
    return element
  }

  /// Checks that the container has no elements left.
  ///
  /// - Throws: ``ASN1Error/trailingData(offset:found:)`` naming the first element left over, or
  ///   the error that element's malformed header gives.
  public func finish() throws(ASN1Error) {
    guard position < limit else { return }
    let leftover = try header(at: position, limit: limit)
    throw .trailingData(offset: offset(of: position), found: leftover.tag)
  }

  /// A reader of the elements inside a constructed element.
  ///
  /// - Parameter element: A constructed element this reader (or its parent) returned.
  /// - Returns: The reader, one level deeper.
  /// - Throws: ``ASN1Error/notConstructed(offset:tag:)`` for a primitive element, or
  ///   ``ASN1Error/nestingTooDeep(offset:limit:)``.
  public func children(of element: ASN1Element) throws(ASN1Error) -> ASN1Reader {
    guard element.tag.isConstructed else {
      throw .notConstructed(offset: offset(of: element.startIndex), tag: element.tag)
    }
    guard depth + 1 < maximumDepth else {
      throw .nestingTooDeep(
        offset: offset(of: element.contentRange.lowerBound), limit: maximumDepth)
    }
    return ASN1Reader(
      sharing: bytes, range: element.contentRange, depth: depth + 1, maximumDepth: maximumDepth)
  }

  /// The content octets of an element, as a slice of the input (no copy).
  ///
  /// - Parameter element: An element this reader (or its parent) returned.
  /// - Returns: The contents; for a constructed element, its encoded children.
  public func contents(of element: ASN1Element) -> ArraySlice<UInt8> {
    bytes[element.contentRange]
  }

  /// The encoding of an element, header and contents, as a slice of the input (no copy).
  ///
  /// - Parameter element: An element this reader (or its parent) returned.
  /// - Returns: The bytes from its first identifier octet to its end.
  public func encoding(of element: ASN1Element) -> ArraySlice<UInt8> {
    bytes[element.startIndex..<element.endIndex]
  }

  /// The offset of an index from the start of the input, as errors report it.
  ///
  /// - Parameter index: An index of ``bytes``.
  /// - Returns: The distance from the input's first byte.
  public func offset(of index: Int) -> Int {
    index - bytes.startIndex
  }

  // MARK: - Headers

  /// A parsed identifier and length.
  struct Header {
    var tag: ASN1Tag
    var contentStart: Int
    /// `nil` for an indefinite length.
    var length: Int?
  }

  /// Reads the element at `start`, finding the end of an indefinite length.
  func element(at start: Int) throws(ASN1Error) -> ASN1Element {
    let header = try header(at: start, limit: limit)
    if let length = header.length {
      let end = header.contentStart + length
      return ASN1Element(
        tag: header.tag, startIndex: start, contentRange: header.contentStart..<end, endIndex: end)
    }
    let marker = try endOfContents(elementStart: start, contentStart: header.contentStart)
    return ASN1Element(
      tag: header.tag, startIndex: start, contentRange: header.contentStart..<marker,
      endIndex: marker + 2)
  }

  /// Parses the identifier and length octets at `start`, checking that the element fits before
  /// `limit`. An end-of-contents marker here closes nothing, so it is an error.
  func header(at start: Int, limit: Int) throws(ASN1Error) -> Header {
    var index = start
    let first = bytes[index]
    index += 1
    if first == 0 {
      // Identifier 00 is reserved for end-of-contents, which only an indefinite length's own
      // scan consumes.
      guard index < limit else { throw overrun(at: start, needed: 2, limit: limit) }
      if bytes[index] == 0 { throw .unexpectedEndOfContents(offset: offset(of: start)) }
      throw .malformedEndOfContents(offset: offset(of: start))
    }
    let tagClass = ASN1TagClass(rawValue: first >> 6) ?? .universal
    let isConstructed = first & 0x20 != 0
    var number = UInt32(first & 0x1F)
    if number == 0x1F {
      // High tag number: base-128 groups, most significant first.
      number = 0
      var groups = 0
      while true {
        guard index < limit else {
          throw overrun(at: start, needed: index - start + 2, limit: limit)
        }
        let group = bytes[index]
        index += 1
        if groups == 0 && group == 0x80 { throw .malformedTag(offset: offset(of: start)) }
        groups += 1
        guard number <= UInt32.max >> 7 else { throw .tagNumberTooLarge(offset: offset(of: start)) }
        number = number << 7 | UInt32(group & 0x7F)
        if group & 0x80 == 0 { break }
      }
    }
    let tag = ASN1Tag(tagClass, number: number, isConstructed: isConstructed)

    guard index < limit else { throw overrun(at: start, needed: index - start + 1, limit: limit) }
    let lengthStart = index
    let lengthOctet = bytes[index]
    index += 1
    let length: Int
    if lengthOctet < 0x80 {
      length = Int(lengthOctet)
    } else if lengthOctet == 0x80 {
      guard isConstructed else { throw .indefiniteLengthOnPrimitive(offset: offset(of: start)) }
      return Header(tag: tag, contentStart: index, length: nil)
    } else {
      let count = Int(lengthOctet & 0x7F)
      // 0xFF is reserved; more than 8 octets cannot describe bytes that exist.
      guard lengthOctet != 0xFF, count <= 8 else {
        throw .unsupportedLength(offset: offset(of: lengthStart))
      }
      guard limit - index >= count else {
        throw overrun(at: start, needed: index - start + count, limit: limit)
      }
      var value: UInt64 = 0
      for octetIndex in index..<index + count {
        value = value << 8 | UInt64(bytes[octetIndex])
      }
      index += count
      guard value <= UInt64(Int.max) else {
        throw .unsupportedLength(offset: offset(of: lengthStart))
      }
      length = Int(value)
    }
    guard length <= limit - index else {
      if depth == 0 {
        throw .truncated(
          offset: offset(of: start), needed: index - start + length, available: limit - start)
      }
      throw .lengthExceedsContainer(
        offset: offset(of: start), length: length, available: limit - index)
    }
    return Header(tag: tag, contentStart: index, length: length)
  }

  /// The error for an element whose header runs past `limit`: at the top level the input is cut
  /// short; below it, the element contradicts the length of its container.
  private func overrun(at start: Int, needed: Int, limit: Int) -> ASN1Error {
    if depth == 0 {
      return .truncated(offset: offset(of: start), needed: needed, available: limit - start)
    }
    return .lengthExceedsContainer(
      offset: offset(of: start), length: needed, available: limit - start)
  }

  /// Finds the end-of-contents marker that closes the indefinite-length element at
  /// `elementStart`, whose contents begin at `contentStart`, and returns the marker's index.
  ///
  /// A loop with a counter of open indefinite-length elements, not recursion: definite-length
  /// elements are skipped whole, nested indefinite ones raise the counter, markers lower it.
  private func endOfContents(elementStart: Int, contentStart: Int) throws(ASN1Error) -> Int {
    var open = 1
    var index = contentStart
    while true {
      guard index < limit else {
        if depth == 0 {
          throw .truncated(
            offset: offset(of: elementStart), needed: limit - elementStart + 2,
            available: limit - elementStart)
        }
        throw .missingEndOfContents(offset: offset(of: elementStart))
      }
      if bytes[index] == 0 {
        guard index + 1 < limit else {
          throw overrun(at: index, needed: 2, limit: limit)
        }
        guard bytes[index + 1] == 0 else {
          throw .malformedEndOfContents(offset: offset(of: index))
        }
        open -= 1
        if open == 0 { return index }
        index += 2
        continue
      }
      let header = try header(at: index, limit: limit)
      if let length = header.length {
        index = header.contentStart + length
      } else {
        // The element at `index` sits `open` levels below the one being scanned.
        guard depth + open + 1 <= maximumDepth else {
          throw .nestingTooDeep(offset: offset(of: index), limit: maximumDepth)
        }
        open += 1
        index = header.contentStart
      }
    }
  }
}
