/// Parses the old-style (NeXTSTEP) text property lists that iOS 6 transaction receipts are made
/// of: `{ "key" = "value"; }` with nested dictionaries, arrays `( a, b )`, data `<0fbd>`,
/// quoted and unquoted strings and `//` and `/* */` comments.
///
/// Bounded: nesting deeper than ``maximumDepth`` is refused, every loop consumes input, and
/// each failure is a ``PropertyListError`` with the byte offset. Foundation's
/// `PropertyListSerialization` reads this format too, but yields untyped values and reasons
/// without offsets.
struct OldStylePropertyListParser {
  /// Far deeper than receipts go (two levels), far shallower than the stack allows.
  static let maximumDepth = 16

  private let bytes: ArraySlice<UInt8>
  private var index: Int

  private init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    self.index = bytes.startIndex
  }

  /// Parses text whose single top-level value is a dictionary.
  ///
  /// - Parameter text: The UTF-8 text; offsets in errors count from its first byte.
  /// - Returns: The dictionary's entries.
  /// - Throws: ``PropertyListError`` naming the first problem.
  static func parseDictionary(_ text: ArraySlice<UInt8>) throws(PropertyListError)
    -> [String: PropertyListValue]
  {
    var parser = OldStylePropertyListParser(text)
    try parser.skipWhitespaceAndComments()
    guard let first = parser.peek() else { throw .unexpectedEnd(offset: parser.offset) }
    guard first == UInt8(ascii: "{") else {
      throw .unexpectedCharacter(
        offset: parser.offset, found: first, expected: "'{' opening the dictionary")
    }
    parser.index += 1
    let entries = try parser.dictionary(depth: 1)
    try parser.skipWhitespaceAndComments()
    guard parser.index == text.endIndex else { throw .trailingContent(offset: parser.offset) }
    return entries
  }

  // MARK: - Values

  private var offset: Int { index - bytes.startIndex }

  private func peek() -> UInt8? {
    index < bytes.endIndex ? bytes[index] : nil
  }

  private mutating func value(depth: Int) throws(PropertyListError) -> PropertyListValue {
    try skipWhitespaceAndComments()
    guard let byte = peek() else { throw .unexpectedEnd(offset: offset) }
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "("):
      guard depth < Self.maximumDepth else {
        throw .nestingTooDeep(offset: offset, limit: Self.maximumDepth)
      }
      index += 1
      if byte == UInt8(ascii: "{") { return .dictionary(try dictionary(depth: depth + 1)) }
      return .array(try array(depth: depth + 1))
    case UInt8(ascii: "<"):
      index += 1
      return .data(try data())
    default:
      return .string(try string(expected: "a value"))
    }
  }

  /// The entries after an opening `{`, through the closing `}`.
  private mutating func dictionary(depth: Int) throws(PropertyListError)
    -> [String: PropertyListValue]
  {
    var entries: [String: PropertyListValue] = [:]
    while true {
      try skipWhitespaceAndComments()
      guard let byte = peek() else { throw .unexpectedEnd(offset: offset) }
      if byte == UInt8(ascii: "}") {
        index += 1
        return entries
      }
      let keyOffset = offset
      let key = try string(expected: "a key or '}'")
      try expect("=", after: "the key")
      let value = try value(depth: depth)
      try expect(";", after: "the value")
      guard entries.updateValue(value, forKey: key) == nil else {
        throw .duplicateKey(offset: keyOffset, key: key)
      }
    }
  }

  /// The elements after an opening `(`, through the closing `)`.
  private mutating func array(depth: Int) throws(PropertyListError) -> [PropertyListValue] {
    var elements: [PropertyListValue] = []
    while true {
      try skipWhitespaceAndComments()
      guard let byte = peek() else { throw .unexpectedEnd(offset: offset) }
      if byte == UInt8(ascii: ")") {
        index += 1
        return elements
      }
      elements.append(try value(depth: depth))
      try skipWhitespaceAndComments()
      guard let separator = peek() else { throw .unexpectedEnd(offset: offset) }
      if separator == UInt8(ascii: ",") {
        index += 1
      } else if separator != UInt8(ascii: ")") {
        throw .unexpectedCharacter(offset: offset, found: separator, expected: "',' or ')'")
      }
    }
  }

  /// Hex digit pairs after an opening `<`, through the closing `>`; spaces may separate them.
  private mutating func data() throws(PropertyListError) -> [UInt8] {
    var octets: [UInt8] = []
    var high: UInt8?
    while let byte = peek() {
      if byte == UInt8(ascii: ">") {
        guard high == nil else {
          throw .unexpectedCharacter(offset: offset, found: byte, expected: "a second hex digit")
        }
        index += 1
        return octets
      }
      if let nibble = Self.hexValue(byte) {
        if let pending = high {
          octets.append(pending << 4 | nibble)
          high = nil
        } else {
          high = nibble
        }
      } else if !Self.isWhitespace(byte) {
        throw .unexpectedCharacter(offset: offset, found: byte, expected: "a hex digit or '>'")
      }
      index += 1
    }
    throw .unexpectedEnd(offset: offset)
  }

  // MARK: - Strings

  private mutating func string(expected: String) throws(PropertyListError) -> String {
    guard let byte = peek() else { throw .unexpectedEnd(offset: offset) }
    if byte == UInt8(ascii: "\"") { return try quotedString() }
    let start = index
    while let next = peek(), Self.isUnquotedCharacter(next) { index += 1 }
    guard index > start else {
      throw .unexpectedCharacter(offset: offset, found: byte, expected: expected)
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  private mutating func quotedString() throws(PropertyListError) -> String {
    let start = offset
    index += 1
    var octets: [UInt8] = []
    while let byte = peek() {
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        guard let text = String(validating: octets, as: UTF8.self) else {
          throw .invalidUTF8(offset: start)
        }
        return text
      case UInt8(ascii: "\\"):
        try escape(into: &octets)
      default:
        octets.append(byte)
      }
    }
    throw .unexpectedEnd(offset: offset)
  }

  /// Decodes the escape after a backslash: C escapes, up to three octal digits (a byte), or
  /// `\U` with four hex digits (a UTF-16 unit; a surrogate pair takes two escapes). Any other
  /// escaped character stands for itself.
  private mutating func escape(into octets: inout [UInt8]) throws(PropertyListError) {
    let escapeOffset = offset - 1
    guard let byte = peek() else { throw .unexpectedEnd(offset: offset) }
    index += 1
    switch byte {
    case UInt8(ascii: "n"): octets.append(0x0A)
    case UInt8(ascii: "t"): octets.append(0x09)
    case UInt8(ascii: "r"): octets.append(0x0D)
    case UInt8(ascii: "a"): octets.append(0x07)
    case UInt8(ascii: "b"): octets.append(0x08)
    case UInt8(ascii: "f"): octets.append(0x0C)
    case UInt8(ascii: "v"): octets.append(0x0B)
    case UInt8(ascii: "0")...UInt8(ascii: "7"):
      var value = Int(byte - UInt8(ascii: "0"))
      for _ in 0..<2 {
        guard let digit = peek(), (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(digit) else {
          break
        }
        value = value * 8 + Int(digit - UInt8(ascii: "0"))
        index += 1
      }
      guard value <= 0xFF else { throw .invalidEscape(offset: escapeOffset) }
      octets.append(UInt8(value))
    case UInt8(ascii: "U"), UInt8(ascii: "u"):
      let unit = try utf16Unit(escapeOffset: escapeOffset)
      var value = UInt32(unit)
      if UTF16.isLeadSurrogate(unit) {
        // The trailing half of the pair must follow as a second escape.
        guard peek() == UInt8(ascii: "\\") else { throw .invalidEscape(offset: escapeOffset) }
        index += 1
        guard let letter = peek(), letter == UInt8(ascii: "U") || letter == UInt8(ascii: "u")
        else { throw .invalidEscape(offset: escapeOffset) }
        index += 1
        let trail = try utf16Unit(escapeOffset: escapeOffset)
        guard UTF16.isTrailSurrogate(trail) else { throw .invalidEscape(offset: escapeOffset) }
        value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(trail - 0xDC00)
      }
      // A lone trailing surrogate is no character.
      guard let scalar = Unicode.Scalar(value) else { throw .invalidEscape(offset: escapeOffset) }
      octets.append(contentsOf: String(scalar).utf8)
    default:
      octets.append(byte)
    }
  }

  private mutating func utf16Unit(escapeOffset: Int) throws(PropertyListError) -> UInt16 {
    var unit: UInt16 = 0
    for _ in 0..<4 {
      guard let digit = peek(), let nibble = Self.hexValue(digit) else {
        throw .invalidEscape(offset: escapeOffset)
      }
      unit = unit << 4 | UInt16(nibble)
      index += 1
    }
    return unit
  }

  // MARK: - Layout

  private mutating func expect(_ character: Unicode.Scalar, after what: String)
    throws(PropertyListError)
  {
    try skipWhitespaceAndComments()
    guard let byte = peek() else { throw .unexpectedEnd(offset: offset) }
    guard byte == UInt8(ascii: character) else {
      throw .unexpectedCharacter(
        offset: offset, found: byte, expected: "'\(character)' after \(what)")
    }
    index += 1
  }

  private mutating func skipWhitespaceAndComments() throws(PropertyListError) {
    while let byte = peek() {
      if Self.isWhitespace(byte) {
        index += 1
      } else if byte == UInt8(ascii: "/"), index + 1 < bytes.endIndex {
        let next = bytes[index + 1]
        if next == UInt8(ascii: "/") {
          index += 2
          while let character = peek(), character != 0x0A, character != 0x0D { index += 1 }
        } else if next == UInt8(ascii: "*") {
          let start = offset
          index += 2
          while true {
            guard index + 1 < bytes.endIndex else { throw .unexpectedEnd(offset: start) }
            if bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/") {
              index += 2
              break
            }
            index += 1
          }
        } else {
          return
        }
      } else {
        return
      }
    }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  private static func isUnquotedCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"),
      UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."),
      UInt8(ascii: "-"):
      true
    default:
      false
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
