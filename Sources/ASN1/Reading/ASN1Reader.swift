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
/// let versionElement = try fields.read(.integer)
/// let version = try fields.integer(versionElement)
/// ```
///
/// An indefinite-length element's end is found when its header is read, by a flat scan over the
/// headers of its contents (skipping definite-length parts whole). A caller that descends into
/// nested indefinite-length elements rescans the inner ones, so the work is at most the input's
/// header count times the nesting limit.
///
/// Speed: the walking methods are inlinable so that callers in other modules get them
/// specialized and free of call overhead; ``withChildren(of:_:)`` and
/// ``withEncapsulated(in:_:)`` descend without making a second reader (each reader retains the
/// input); and ``commonShape(in:at:limit:)`` serves hand-written fast paths. Write
/// `let element = try reader.read(...)` and `reader.integer(element)` as two statements: nested
/// in one expression, the reader is copied.
public struct ASN1Reader: Sendable {
  /// The whole input; child readers share it.
  public let bytes: ArraySlice<UInt8>

  /// The index of the next element this reader returns.
  @inlinable public var position: Int { nextIndex }

  /// Storage of ``position``, settable by the inlinable walking methods.
  @usableFromInline var nextIndex: Int

  /// The index where this reader's container ends.
  @inlinable public var limit: Int { end }

  /// Storage of ``limit``, which ``withChildren(of:_:)`` narrows and restores.
  @usableFromInline var end: Int

  /// How many elements enclose the elements this reader returns (0 for the input's top level).
  @inlinable public var depth: Int { level }

  /// Storage of ``depth``, which ``withChildren(of:_:)`` raises and restores.
  @usableFromInline var level: Int

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
  @inlinable
  public init(_ bytes: ArraySlice<UInt8>, maximumDepth: Int = defaultMaximumDepth) {
    self.bytes = bytes
    self.nextIndex = bytes.startIndex
    self.end = bytes.endIndex
    self.level = 0
    self.maximumDepth = maximumDepth
  }

  /// Creates a reader of the top-level elements of `bytes`.
  ///
  /// - Parameters:
  ///   - bytes: The input; offsets in errors count from its first byte.
  ///   - maximumDepth: The deepest nesting accepted.
  @inlinable
  public init(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) {
    self.init(bytes[...], maximumDepth: maximumDepth)
  }

  /// A reader of `range` of `bytes`, `depth` levels down.
  @inlinable
  init(sharing bytes: ArraySlice<UInt8>, range: Range<Int>, depth: Int, maximumDepth: Int) {
    self.bytes = bytes
    self.nextIndex = range.lowerBound
    self.end = range.upperBound
    self.level = depth
    self.maximumDepth = maximumDepth
  }

  // MARK: - Walking

  /// Whether every element of the container has been read.
  @inlinable public var isAtEnd: Bool { nextIndex >= limit }

  /// Reads the next element of the container, or returns `nil` at its end.
  ///
  /// - Returns: The element, whose contents are not yet checked; or `nil`.
  /// - Throws: ``ASN1Error`` if the header is malformed or the element overruns its container.
  @inlinable @inline(__always)
  public mutating func next() throws(ASN1Error) -> ASN1Element? {
    guard nextIndex < limit else { return nil }
    let element = try Self.element(
      in: bytes, at: nextIndex, end: end, level: level, maximumDepth: maximumDepth)
    nextIndex = element.endIndex
    return element
  }

  /// Reads the next element and checks its tag.
  ///
  /// - Parameter tag: The tag the element must have.
  /// - Returns: The element.
  /// - Throws: ``ASN1Error/missingElement(offset:expected:)`` at the container's end,
  ///   ``ASN1Error/unexpectedTag(offset:expected:found:)`` for another tag, or any error of
  ///   ``next()``.
  @inlinable @inline(__always)
  public mutating func read(_ tag: ASN1Tag) throws(ASN1Error) -> ASN1Element {
    guard let element = try next() else {
      throw .missingElement(offset: offset(of: nextIndex), expected: tag)
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
  @inlinable
  public mutating func readIfPresent(_ tag: ASN1Tag) throws(ASN1Error) -> ASN1Element? {
    guard nextIndex < limit, try self.tag(at: nextIndex) == tag else { return nil }
    let element = try Self.element(
      in: bytes, at: nextIndex, end: end, level: level, maximumDepth: maximumDepth)
    nextIndex = element.endIndex
    return element
  }

  /// Checks that the container has no elements left.
  ///
  /// - Throws: ``ASN1Error/trailingData(offset:found:)`` naming the first element left over, or
  ///   the error that element's malformed header gives.
  @inlinable
  public func finish() throws(ASN1Error) {
    guard nextIndex < limit else { return }
    throw .trailingData(offset: offset(of: nextIndex), found: try tag(at: nextIndex))
  }

  /// A reader of the elements inside a constructed element.
  ///
  /// - Parameter element: A constructed element this reader (or its parent) returned.
  /// - Returns: The reader, one level deeper.
  /// - Throws: ``ASN1Error/notConstructed(offset:tag:)`` for a primitive element, or
  ///   ``ASN1Error/nestingTooDeep(offset:limit:)``.
  @inlinable
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

  /// Runs `body` with this reader narrowed to the elements inside a constructed element, then
  /// restores it where it was.
  ///
  /// The same as reading ``children(of:)``, without making a second reader — and so without
  /// retaining the input again — for loops over many small elements.
  ///
  /// - Parameters:
  ///   - element: A constructed element this reader returned.
  ///   - body: Reads the children with the reader it is given.
  /// - Returns: What `body` returns.
  /// - Throws: ``ASN1Error/notConstructed(offset:tag:)`` for a primitive element,
  ///   ``ASN1Error/nestingTooDeep(offset:limit:)``, or what `body` throws.
  @inlinable @inline(__always)
  public mutating func withChildren<Result>(
    of element: ASN1Element, _ body: (inout ASN1Reader) throws(ASN1Error) -> Result
  ) throws(ASN1Error) -> Result {
    guard element.tag.isConstructed else {
      throw .notConstructed(offset: offset(of: element.startIndex), tag: element.tag)
    }
    guard level + 1 < maximumDepth else {
      throw .nestingTooDeep(
        offset: offset(of: element.contentRange.lowerBound), limit: maximumDepth)
    }
    return try withWindow(element.contentRange, body)
  }

  /// Runs `body` with this reader narrowed to `range`, one level deeper, then restores it.
  @inlinable @inline(__always)
  mutating func withWindow<Result>(
    _ range: Range<Int>, _ body: (inout ASN1Reader) throws(ASN1Error) -> Result
  ) throws(ASN1Error) -> Result {
    let saved = (nextIndex, end, level)
    nextIndex = range.lowerBound
    end = range.upperBound
    level += 1
    defer { (nextIndex, end, level) = saved }
    return try body(&self)
  }

  /// The content octets of an element, as a slice of the input (no copy).
  ///
  /// - Parameter element: An element this reader (or its parent) returned.
  /// - Returns: The contents; for a constructed element, its encoded children.
  @inlinable
  public func contents(of element: ASN1Element) -> ArraySlice<UInt8> {
    bytes[element.contentRange]
  }

  /// The offset of an index from the start of the input, as errors report it.
  ///
  /// - Parameter index: An index of ``bytes``.
  /// - Returns: The distance from the input's first byte.
  @inlinable
  public func offset(of index: Int) -> Int {
    index - bytes.startIndex
  }

  // MARK: - Headers

  /// A parsed identifier and length, positions counted from the input's first byte.
  @usableFromInline
  struct Header {
    @usableFromInline var tag: ASN1Tag
    @usableFromInline var contentStart: Int
    /// `-1` for an indefinite length.
    @usableFromInline var length: Int

    @inlinable
    init(tag: ASN1Tag, contentStart: Int, length: Int) {
      self.tag = tag
      self.contentStart = contentStart
      self.length = length
    }
  }

  /// Reads the element at `start` of a reader with these fields, finding the end of an
  /// indefinite length.
  ///
  /// Static, with the fields passed one by one: a method on the reader would copy the whole
  /// reader out of the caller's `inout` storage for every element.
  @inlinable @inline(__always)
  static func element(
    in bytes: ArraySlice<UInt8>, at start: Int, end: Int, level: Int, maximumDepth: Int
  ) throws(ASN1Error) -> ASN1Element {
    // Read straight from the slice, not through a closure over its buffer, which would retain
    // the input for every element.
    guard let header = commonHeader(in: bytes, at: start, limit: end) else {
      return try uncommonElement(
        in: bytes, at: start, end: end, level: level, maximumDepth: maximumDepth)
    }
    let contentEnd = header.contentStart + header.length
    return ASN1Element(
      tag: header.tag, startIndex: start, contentRange: header.contentStart..<contentEnd,
      endIndex: contentEnd)
  }

  /// The header at `start` if it has the shape nearly every element has — a one-octet tag
  /// other than end-of-contents, a definite length in at most two octets, contents that fit
  /// before `limit` — or `nil` for ``header(in:at:limit:topLevel:)`` to read and judge.
  @inlinable @inline(__always)
  static func commonHeader<Bytes: RandomAccessCollection<UInt8>>(
    in bytes: Bytes, at start: Int, limit: Int
  ) -> Header? where Bytes.Index == Int {
    guard let (identifier, contents) = commonShape(in: bytes, at: start, limit: limit) else {
      return nil
    }
    let tagClass: ASN1TagClass =
      switch identifier >> 6 {
      case 0: .universal
      case 1: .application
      case 2: .contextSpecific
      default: .private
      }
    return Header(
      tag: ASN1Tag(
        tagClass, number: UInt32(identifier & 0x1F), isConstructed: identifier & 0x20 != 0),
      contentStart: contents.lowerBound, length: contents.count)
  }

  /// The identifier octet and the content range of the element at `start`, if its header has
  /// the common shape: a one-octet tag (tag number below 31) other than end-of-contents, and a
  /// definite length in at most two length octets whose contents fit before `limit`.
  ///
  /// For hand-written fast paths over the DER shapes real data uses. `nil` means "not that
  /// shape", never "malformed": give such bytes to an ``ASN1Reader``, which reads every form
  /// BER allows and names what is wrong.
  ///
  /// - Parameters:
  ///   - bytes: The encoding.
  ///   - start: The index of the identifier octet.
  ///   - limit: The index where the enclosing element (or the input) ends.
  /// - Returns: The identifier octet (class, constructed bit and tag number together) and the
  ///   indices of the contents, or `nil`.
  @inlinable @inline(__always)
  public static func commonShape<Bytes: RandomAccessCollection<UInt8>>(
    in bytes: Bytes, at start: Int, limit: Int
  ) -> (identifier: UInt8, contents: Range<Int>)? where Bytes.Index == Int {
    guard start >= bytes.startIndex, limit <= bytes.endIndex, start + 2 <= limit else {
      return nil
    }
    let identifier = bytes[start]
    guard identifier & 0x1F != 0x1F, identifier != 0 else { return nil }
    let lengthOctet = bytes[start + 1]
    var contentStart = start + 2
    var length = Int(lengthOctet)
    if lengthOctet >= 0x80 {
      if lengthOctet == 0x81 && start + 3 <= limit {
        length = Int(bytes[start + 2])
        contentStart = start + 3
      } else if lengthOctet == 0x82 && start + 4 <= limit {
        length = Int(bytes[start + 2]) << 8 | Int(bytes[start + 3])
        contentStart = start + 4
      } else {
        return nil
      }
    }
    guard length <= limit - contentStart else { return nil }
    return (identifier, contentStart..<contentStart + length)
  }

  /// Reads an element ``element(in:at:end:level:maximumDepth:)`` does not read inline: a high
  /// tag number, a long or indefinite length, or a header that is malformed or overruns its
  /// container.
  @usableFromInline
  static func uncommonElement(
    in bytes: ArraySlice<UInt8>, at start: Int, end: Int, level: Int, maximumDepth: Int
  ) throws(ASN1Error) -> ASN1Element {
    let base = bytes.startIndex
    let (first, last) = (start - base, end - base)
    let (header, marker) = try bytes.withUnsafeBufferPointer {
      buffer throws(ASN1Error) -> (Header, Int) in
      let header = try Self.header(in: buffer, at: first, limit: last, topLevel: level == 0)
      guard header.length < 0 else { return (header, -1) }
      let marker = try Self.endOfContents(
        in: buffer, elementStart: first, contentStart: header.contentStart, limit: last,
        depth: level, maximumDepth: maximumDepth)
      return (header, marker)
    }
    let contentStart = base + header.contentStart
    if header.length >= 0 {
      let end = contentStart + header.length
      return ASN1Element(
        tag: header.tag, startIndex: start, contentRange: contentStart..<end, endIndex: end)
    }
    return ASN1Element(
      tag: header.tag, startIndex: start, contentRange: contentStart..<base + marker,
      endIndex: base + marker + 2)
  }

  /// The tag of the element at `start`, checking its header.
  @inlinable
  func tag(at start: Int) throws(ASN1Error) -> ASN1Tag {
    let base = bytes.startIndex
    let topLevel = depth == 0
    let (first, last) = (start - base, limit - base)
    return try bytes.withUnsafeBufferPointer { buffer throws(ASN1Error) in
      try Self.header(in: buffer, at: first, limit: last, topLevel: topLevel).tag
    }
  }

  /// Parses the identifier and length octets at `start`, checking that the element fits before
  /// `limit`. An end-of-contents marker here closes nothing, so it is an error.
  ///
  /// Positions are offsets into `buffer`, the whole input; every read is preceded by a check
  /// against `limit`, which never exceeds `buffer.count`, so the unchecked subscripts are safe.
  @inlinable
  static func header(
    in buffer: UnsafeBufferPointer<UInt8>, at start: Int, limit: Int, topLevel: Bool
  ) throws(ASN1Error) -> Header {
    var index = start
    let first = buffer[index]
    index += 1
    if first == 0 {
      // Identifier 00 is reserved for end-of-contents, which only an indefinite length's own
      // scan consumes.
      guard index < limit else {
        throw overrun(at: start, needed: 2, limit: limit, topLevel: topLevel)
      }
      if buffer[index] == 0 { throw .unexpectedEndOfContents(offset: start) }
      throw .malformedEndOfContents(offset: start)
    }
    let tagClass: ASN1TagClass =
      switch first >> 6 {
      case 0: .universal
      case 1: .application
      case 2: .contextSpecific
      default: .private
      }
    let isConstructed = first & 0x20 != 0
    var number = UInt32(first & 0x1F)
    if number == 0x1F {
      // High tag number: base-128 groups, most significant first.
      number = 0
      var groups = 0
      while true {
        guard index < limit else {
          throw overrun(at: start, needed: index - start + 2, limit: limit, topLevel: topLevel)
        }
        let group = buffer[index]
        index += 1
        if groups == 0 && group == 0x80 { throw .malformedTag(offset: start) }
        groups += 1
        guard number <= UInt32.max >> 7 else { throw .tagNumberTooLarge(offset: start) }
        number = number << 7 | UInt32(group & 0x7F)
        if group & 0x80 == 0 { break }
      }
    }
    let tag = ASN1Tag(tagClass, number: number, isConstructed: isConstructed)

    guard index < limit else {
      throw overrun(at: start, needed: index - start + 1, limit: limit, topLevel: topLevel)
    }
    let lengthStart = index
    let lengthOctet = buffer[index]
    index += 1
    let length: Int
    if lengthOctet < 0x80 {
      length = Int(lengthOctet)
    } else if lengthOctet == 0x80 {
      guard isConstructed else { throw .indefiniteLengthOnPrimitive(offset: start) }
      return Header(tag: tag, contentStart: index, length: -1)
    } else {
      let count = Int(lengthOctet & 0x7F)
      // 0xFF is reserved; more than 8 octets cannot describe bytes that exist.
      guard lengthOctet != 0xFF, count <= 8 else {
        throw .unsupportedLength(offset: lengthStart)
      }
      guard limit - index >= count else {
        throw overrun(at: start, needed: index - start + count, limit: limit, topLevel: topLevel)
      }
      var value: UInt64 = 0
      for octetIndex in index..<index + count {
        value = value << 8 | UInt64(buffer[octetIndex])
      }
      index += count
      guard value <= UInt64(Int.max) else { throw .unsupportedLength(offset: lengthStart) }
      length = Int(value)
    }
    guard length <= limit - index else {
      if topLevel {
        // `length` may be anything up to Int.max: the sum saturates rather than trapping.
        let (needed, overflow) = (index - start).addingReportingOverflow(length)
        throw .truncated(
          offset: start, needed: overflow ? Int.max : needed, available: limit - start)
      }
      throw .lengthExceedsContainer(offset: start, length: length, available: limit - index)
    }
    return Header(tag: tag, contentStart: index, length: length)
  }

  /// The error for an element whose header runs past `limit`: at the top level the input is cut
  /// short; below it, the element contradicts the length of its container.
  @usableFromInline
  static func overrun(at start: Int, needed: Int, limit: Int, topLevel: Bool) -> ASN1Error {
    if topLevel {
      return .truncated(offset: start, needed: needed, available: limit - start)
    }
    return .lengthExceedsContainer(offset: start, length: needed, available: limit - start)
  }

  /// Finds the end-of-contents marker that closes the indefinite-length element at
  /// `elementStart`, whose contents begin at `contentStart`, and returns the marker's offset.
  ///
  /// A loop with a counter of open indefinite-length elements, not recursion: definite-length
  /// elements are skipped whole, nested indefinite ones raise the counter, markers lower it.
  @usableFromInline
  static func endOfContents(
    in buffer: UnsafeBufferPointer<UInt8>, elementStart: Int, contentStart: Int, limit: Int,
    depth: Int, maximumDepth: Int
  ) throws(ASN1Error) -> Int {
    let topLevel = depth == 0
    var open = 1
    var index = contentStart
    while true {
      guard index < limit else {
        if topLevel {
          throw .truncated(
            offset: elementStart, needed: limit - elementStart + 2,
            available: limit - elementStart)
        }
        throw .missingEndOfContents(offset: elementStart)
      }
      if buffer[index] == 0 {
        guard index + 1 < limit else {
          throw overrun(at: index, needed: 2, limit: limit, topLevel: topLevel)
        }
        guard buffer[index + 1] == 0 else { throw .malformedEndOfContents(offset: index) }
        open -= 1
        if open == 0 { return index }
        index += 2
        continue
      }
      let header: Header
      if let common = commonHeader(in: buffer, at: index, limit: limit) {
        header = common
      } else {
        header = try self.header(in: buffer, at: index, limit: limit, topLevel: topLevel)
      }
      if header.length >= 0 {
        index = header.contentStart + header.length
      } else {
        // The element at `index` sits `open` levels below the one being scanned.
        guard depth + open + 1 <= maximumDepth else {
          throw .nestingTooDeep(offset: index, limit: maximumDepth)
        }
        open += 1
        index = header.contentStart
      }
    }
  }
}
