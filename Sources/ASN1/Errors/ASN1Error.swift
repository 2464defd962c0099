/// Why BER/DER bytes could not be read, with the byte offset where the problem starts.
///
/// Offsets count from the first byte of the input the outermost ``ASN1Reader`` was given, so a
/// message can point into a hex dump of exactly that input.
public enum ASN1Error: Error, Hashable, Sendable, CustomStringConvertible {
  /// The input ends inside the top-level element that starts at `offset`: its header or contents
  /// need `needed` bytes from there, and only `available` remain.
  case truncated(offset: Int, needed: Int, available: Int)

  /// The nested element at `offset` claims `length` bytes (of contents, or of header when the
  /// header itself overruns), more than the `available` bytes left in the element that encloses
  /// it — whose own length said it was complete.
  case lengthExceedsContainer(offset: Int, length: Int, available: Int)

  /// The length at `offset` uses the reserved octet `0xFF`, more than 8 length octets, or a
  /// value no input can hold.
  case unsupportedLength(offset: Int)

  /// The primitive element at `offset` has an indefinite length, which only constructed elements
  /// may have.
  case indefiniteLengthOnPrimitive(offset: Int)

  /// The tag at `offset` is encoded wrongly (a high tag number with a leading zero group).
  case malformedTag(offset: Int)

  /// The tag number at `offset` does not fit in 32 bits.
  case tagNumberTooLarge(offset: Int)

  /// The indefinite-length element at `offset` has no end-of-contents marker before its
  /// enclosing element ends.
  case missingEndOfContents(offset: Int)

  /// The end-of-contents marker at `offset` is not the two octets `00 00`.
  case malformedEndOfContents(offset: Int)

  /// An end-of-contents marker at `offset` closes nothing: its container has a definite length.
  case unexpectedEndOfContents(offset: Int)

  /// The element at `offset` is nested deeper than `limit` levels.
  case nestingTooDeep(offset: Int, limit: Int)

  /// The element at `offset` has tag `found` where `expected` belongs.
  case unexpectedTag(offset: Int, expected: ASN1Tag, found: ASN1Tag)

  /// The container ends at `offset` where an element with tag `expected` belongs.
  case missingElement(offset: Int, expected: ASN1Tag)

  /// An element with tag `found` at `offset` follows where the container or input should end.
  case trailingData(offset: Int, found: ASN1Tag)

  /// The primitive element at `offset`, tagged `tag`, was expected to hold further elements.
  case notConstructed(offset: Int, tag: ASN1Tag)

  /// The INTEGER at `offset` has no content octets.
  case malformedInteger(offset: Int)

  /// The INTEGER at `offset` does not fit in a signed 64-bit integer.
  case integerOutOfRange(offset: Int)

  /// The OBJECT IDENTIFIER at `offset` is empty, ends mid-arc, pads an arc with a leading zero
  /// group, or has an arc beyond 64 bits.
  case malformedObjectIdentifier(offset: Int)

  /// The string at `offset` is not valid in its `encoding` (`UTF-8` or `ASCII`).
  case invalidString(offset: Int, encoding: String)

  /// The byte offset at which the problem starts.
  public var offset: Int {
    switch self {
    case .truncated(let offset, _, _), .lengthExceedsContainer(let offset, _, _),
      .unsupportedLength(let offset), .indefiniteLengthOnPrimitive(let offset),
      .malformedTag(let offset), .tagNumberTooLarge(let offset),
      .missingEndOfContents(let offset), .malformedEndOfContents(let offset),
      .unexpectedEndOfContents(let offset), .nestingTooDeep(let offset, _),
      .unexpectedTag(let offset, _, _), .missingElement(let offset, _),
      .trailingData(let offset, _), .notConstructed(let offset, _),
      .malformedInteger(let offset), .integerOutOfRange(let offset),
      .malformedObjectIdentifier(let offset), .invalidString(let offset, _):
      return offset
    }
  }

  /// A sentence naming the problem and where it is.
  public var description: String {
    switch self {
    case .truncated(let offset, let needed, let available):
      "the data is cut short: the element at byte \(offset) needs \(needed) bytes and only "
        + "\(available) remain"
    case .lengthExceedsContainer(let offset, let length, let available):
      "the element at byte \(offset) claims \(length) content bytes but its container has only "
        + "\(available) left"
    case .unsupportedLength(let offset):
      "the length at byte \(offset) uses the reserved octet 0xFF, more than 8 length octets, or "
        + "a value no input can hold"
    case .indefiniteLengthOnPrimitive(let offset):
      "the primitive element at byte \(offset) has an indefinite length"
    case .malformedTag(let offset):
      "the tag at byte \(offset) pads its number with a leading zero group"
    case .tagNumberTooLarge(let offset):
      "the tag number at byte \(offset) does not fit in 32 bits"
    case .missingEndOfContents(let offset):
      "the indefinite-length element at byte \(offset) has no end-of-contents marker before its "
        + "container ends"
    case .malformedEndOfContents(let offset):
      "the end-of-contents marker at byte \(offset) is not 00 00"
    case .unexpectedEndOfContents(let offset):
      "an end-of-contents marker at byte \(offset) appears inside a definite-length element"
    case .nestingTooDeep(let offset, let limit):
      "the element at byte \(offset) is nested more than \(limit) levels deep"
    case .unexpectedTag(let offset, let expected, let found):
      "the element at byte \(offset) is \(found) where \(expected) belongs"
    case .missingElement(let offset, let expected):
      "the container ends at byte \(offset) where \(expected) belongs"
    case .trailingData(let offset, let found):
      "an unexpected \(found) follows at byte \(offset) where the data should end"
    case .notConstructed(let offset, let tag):
      "the element at byte \(offset) is a primitive \(tag) where a constructed one belongs"
    case .malformedInteger(let offset):
      "the INTEGER at byte \(offset) has no content octets"
    case .integerOutOfRange(let offset):
      "the INTEGER at byte \(offset) does not fit in 64 bits"
    case .malformedObjectIdentifier(let offset):
      "the OBJECT IDENTIFIER at byte \(offset) is malformed"
    case .invalidString(let offset, let encoding):
      "the string at byte \(offset) is not valid \(encoding)"
    }
  }
}
