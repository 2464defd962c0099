// MARK: - Strings

extension JSONReader {
  /// Reads a string value.
  ///
  /// - Returns: the unescaped string.
  /// - Throws: `JSONError.typeMismatch` when the value is not a string, or a syntax error.
  @inlinable
  public mutating func readString() throws(JSONError) -> String {
    try expectString()
    let scan = try scanString()
    state = .afterValue
    if !scan.hasEscapes {
      return String(
        decoding: UnsafeRawBufferPointer(start: base + scan.start, count: scan.length),
        as: UTF8.self)
    }
    return String(decoding: unescape(scan), as: UTF8.self)
  }

  /// Reads a string value and hands its unescaped UTF-8 bytes to `body` without making a
  /// `String` — for callers that only compare, hash or copy the bytes.
  ///
  /// - Parameter body: receives the bytes; they are valid only during the call.
  /// - Returns: what `body` returns.
  /// - Throws: `JSONError` when the value is not a string or is malformed.
  @inlinable
  public mutating func withStringBytes<Result>(
    _ body: (UnsafeRawBufferPointer) -> Result
  ) throws(JSONError) -> Result {
    try expectString()
    let scan = try scanString()
    state = .afterValue
    if !scan.hasEscapes {
      return body(UnsafeRawBufferPointer(start: base + scan.start, count: scan.length))
    }
    return unescape(scan).withUnsafeBytes(body)
  }

  @inlinable
  mutating func expectString() throws(JSONError) {
    skipWhitespace()
    guard position < count else { throw JSONError(.unexpectedEnd, at: position) }
    guard base[position] == UInt8(ascii: "\"") else { throw try mismatch(expected: "a string") }
  }

  @inlinable
  mutating func scanKey() throws(JSONError) -> JSONKey {
    let scan = try scanString()
    if !scan.hasEscapes {
      return JSONKey(
        .borrowed(UnsafeRawBufferPointer(start: base + scan.start, count: scan.length)))
    }
    return JSONKey(.owned(unescape(scan)))
  }

  /// The extent of a scanned string literal, without its quotes.
  @usableFromInline struct StringScan {
    @usableFromInline var start: Int
    @usableFromInline var length: Int
    @usableFromInline var hasEscapes: Bool

    @inlinable init(start: Int, length: Int, hasEscapes: Bool) {
      self.start = start
      self.length = length
      self.hasEscapes = hasEscapes
    }
  }

  /// Scans a string literal starting at the opening quote, validating escapes, control
  /// characters and UTF-8, and leaves `position` after the closing quote.
  @usableFromInline
  mutating func scanString() throws(JSONError) -> StringScan {
    position += 1  // the opening quote
    let start = position
    var hasEscapes = false
    while true {
      // Skip eight plain ASCII bytes at a time: long base64 strings (`latest_receipt`) are
      // most of the bytes of a stored response.
      while position + 8 <= count {
        let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
        if JSONReader.wordNeedsAttention(word) { break }
        position += 8
      }
      guard position < count else { throw JSONError(.unexpectedEnd, at: position) }
      let byte = base[position]
      if byte == UInt8(ascii: "\"") {
        let length = position - start
        position += 1
        return StringScan(start: start, length: length, hasEscapes: hasEscapes)
      } else if byte == UInt8(ascii: "\\") {
        hasEscapes = true
        try validateEscape()
      } else if byte < 0x20 {
        throw JSONError(.controlCharacterInString, at: position)
      } else if byte >= 0x80 {
        try validateUTF8Sequence()
      } else {
        position += 1
      }
    }
  }

  /// Whether an eight-byte word holds a quote, a backslash, a control byte or a non-ASCII byte.
  @inlinable
  static func wordNeedsAttention(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quotes = word ^ (ones &* 0x22)
    let backslashes = word ^ (ones &* 0x5C)
    let hasQuote = (quotes &- ones) & ~quotes & highs
    let hasBackslash = (backslashes &- ones) & ~backslashes & highs
    let hasControl = (word &- ones &* 0x20) & ~word & highs
    let hasHigh = word & highs
    return (hasQuote | hasBackslash | hasControl | hasHigh) != 0
  }

  @usableFromInline
  mutating func validateEscape() throws(JSONError) {
    guard position + 1 < count else { throw JSONError(.unexpectedEnd, at: count) }
    switch base[position + 1] {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
      UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
      position += 2
    case UInt8(ascii: "u"):
      guard position + 6 <= count else { throw JSONError(.unexpectedEnd, at: count) }
      guard let unit = hexValue(at: position + 2) else {
        throw JSONError(.invalidEscape, at: position)
      }
      // A UTF-16 surrogate is only meaningful as a high-low pair; a lone one cannot become a
      // Unicode scalar, so it is refused (as Foundation does) rather than silently replaced.
      if (0xDC00...0xDFFF).contains(unit) { throw JSONError(.invalidEscape, at: position) }
      if (0xD800...0xDBFF).contains(unit) {
        let pairStart = Array("\\u".utf8)
        for index in 0..<2 where position + 6 + index < count {
          if base[position + 6 + index] != pairStart[index] {
            throw JSONError(.invalidEscape, at: position)
          }
        }
        guard position + 12 <= count else { throw JSONError(.unexpectedEnd, at: count) }
        guard let low = hexValue(at: position + 8), (0xDC00...0xDFFF).contains(low) else {
          throw JSONError(.invalidEscape, at: position)
        }
        position += 12
      } else {
        position += 6
      }
    default:
      throw JSONError(.invalidEscape, at: position)
    }
  }

  /// The value of four hex digits at `position`, or `nil`.
  @usableFromInline
  func hexValue(at position: Int) -> UInt32? {
    var value: UInt32 = 0
    for index in position..<position + 4 {
      let byte = base[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: return nil
      }
      value = value << 4 | UInt32(digit)
    }
    return value
  }

  /// Validates one multi-byte UTF-8 sequence at `position` (RFC 3629: no overlongs, no
  /// surrogates, nothing above U+10FFFF) and moves past it.
  @usableFromInline
  mutating func validateUTF8Sequence() throws(JSONError) {
    let lead = base[position]
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      high = 0x9F
    case 0xF0:
      length = 4
      low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      high = 0x8F
    default: throw JSONError(.invalidUTF8, at: position)
    }
    // A sequence cut by the end of input is invalid UTF-8 when the bytes present are already
    // wrong, and merely truncated otherwise.
    let available = min(length, count - position)
    if available > 1 {
      let second = base[position + 1]
      guard second >= low && second <= high else { throw JSONError(.invalidUTF8, at: position) }
    }
    if available > 2 {
      for index in 2..<available where base[position + index] & 0xC0 != 0x80 {
        throw JSONError(.invalidUTF8, at: position)
      }
    }
    guard available == length else { throw JSONError(.unexpectedEnd, at: count) }
    position += length
  }

  /// Decodes the escapes of a scanned (and already validated) string into UTF-8 bytes.
  @usableFromInline
  func unescape(_ scan: StringScan) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(scan.length)
    var index = scan.start
    let end = scan.start + scan.length
    while index < end {
      let byte = base[index]
      guard byte == UInt8(ascii: "\\") else {
        output.append(byte)
        index += 1
        continue
      }
      let escaped = base[index + 1]
      index += 2
      switch escaped {
      case UInt8(ascii: "b"): output.append(0x08)
      case UInt8(ascii: "f"): output.append(0x0C)
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "u"):
        // Escapes were validated by the scan: a high surrogate is always followed by its low.
        var scalar = hexValue(at: index) ?? 0xFFFD
        index += 4
        if (0xD800...0xDBFF).contains(scalar), let low = hexValue(at: index + 2) {
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          index += 6
        }
        JSONReader.appendUTF8(scalar, to: &output)
      default: output.append(escaped)  // the quote, the backslash and the solidus
      }
    }
    return output
  }

  @usableFromInline
  static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
    switch scalar {
    case 0..<0x80:
      output.append(UInt8(scalar))
    case 0x80..<0x800:
      output.append(UInt8(0xC0 | scalar >> 6))
      output.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      output.append(UInt8(0xE0 | scalar >> 12))
      output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      output.append(UInt8(0x80 | scalar & 0x3F))
    default:
      output.append(UInt8(0xF0 | scalar >> 18))
      output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      output.append(UInt8(0x80 | scalar & 0x3F))
    }
  }
}
