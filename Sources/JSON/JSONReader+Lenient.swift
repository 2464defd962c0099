// MARK: - Lenient scalars

// Stored receipts hold the same field as `"1"`, `1`, `true` or `"true"` depending on who wrote
// them. These readers accept every scalar spelling and still refuse objects and arrays, so a
// wrong type is an error that names the field rather than a silent default.

extension JSONReader {
  /// Reads a scalar as text: strings as they are, numbers as their literal text, booleans as
  /// `"true"`/`"false"`.
  ///
  /// - Returns: the text, or `nil` for `null`.
  /// - Throws: `JSONError.typeMismatch` for an object or array, or a syntax error.
  @inlinable
  public mutating func readLenientString() throws(JSONError) -> String? {
    switch try peekKind() {
    case .string: return try readString()
    case .number: return try readNumberText()
    case .bool: return try readBool() ? "true" : "false"
    case .null:
      _ = try readNullIfPresent()
      return nil
    case .object, .array:
      throw try mismatch(expected: "a string, number or boolean")
    }
  }

  /// Reads a scalar as a 64-bit integer without ever going through `Double`: numbers, numeric
  /// strings (`"1000000712345678"`, `" 42 "`, `"1.0"`), and booleans (1 and 0).
  ///
  /// - Returns: the value, or `nil` for `null` and for an empty string.
  /// - Throws: `JSONError.typeMismatch` for an object, an array or a non-numeric string;
  ///   `.numberOutOfRange` for a fraction or a value beyond `Int64`.
  @inlinable
  public mutating func readLenientInt64() throws(JSONError) -> Int64? {
    switch try peekKind() {
    case .number: return try readInt64()
    case .string:
      let valueStart = position
      let parsed = try withStringBytes { JSONReader.parseInteger($0) }
      switch parsed {
      case .value(let value): return value
      case .empty: return nil
      case .outOfRange: throw JSONError(.numberOutOfRange("a 64-bit integer"), at: valueStart)
      case .notANumber:
        throw JSONError(
          .typeMismatch(expected: "a number or numeric string", found: .string), at: valueStart)
      }
    case .bool: return try readBool() ? 1 : 0
    case .null:
      _ = try readNullIfPresent()
      return nil
    case .object, .array:
      throw try mismatch(expected: "a number or numeric string")
    }
  }

  /// Reads a scalar as a boolean: `true`/`false`, the strings `"true"`, `"false"`, `"1"`,
  /// `"0"`, `"yes"`, `"no"` (any case), and the numbers 1 and 0.
  ///
  /// - Returns: the value, or `nil` for `null` and for an empty string.
  /// - Throws: `JSONError.typeMismatch` for anything else.
  @inlinable
  public mutating func readLenientBool() throws(JSONError) -> Bool? {
    let kind = try peekKind()
    let valueStart = position
    switch kind {
    case .bool: return try readBool()
    case .number:
      switch try readInt64() {
      case 1: return true
      case 0: return false
      default:
        throw JSONError(
          .typeMismatch(expected: "a boolean (1 or 0)", found: .number), at: valueStart)
      }
    case .string:
      let parsed = try withStringBytes { JSONReader.parseBoolean($0) }
      switch parsed {
      case .some(let value): return value
      case .none:
        throw JSONError(
          .typeMismatch(expected: "a boolean or boolean string", found: .string), at: valueStart)
      }
    case .null:
      _ = try readNullIfPresent()
      return nil
    case .object, .array:
      throw try mismatch(expected: "a boolean")
    }
  }

  /// The outcome of reading an integer out of a string's bytes.
  @usableFromInline enum IntegerText {
    case value(Int64)
    case empty
    case notANumber
    case outOfRange
  }

  /// Parses the text of a numeric string: optional spaces, optional sign, digits (leading
  /// zeros allowed, as in `"007"`), or any JSON number form that is integral.
  @usableFromInline
  static func parseInteger(_ bytes: UnsafeRawBufferPointer) -> IntegerText {
    var start = 0
    var end = bytes.count
    while start < end, bytes[start] == 0x20 { start += 1 }
    while end > start, bytes[end - 1] == 0x20 { end -= 1 }
    guard start < end else { return .empty }
    var index = start
    var negative = false
    if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
      negative = bytes[index] == UInt8(ascii: "-")
      index += 1
    }
    guard index < end else { return .notANumber }
    var magnitude: UInt64 = 0
    var allDigits = true
    for position in index..<end {
      let byte = bytes[position]
      guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else {
        allDigits = false
        break
      }
      let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
      if overflow1 || overflow2 { return .outOfRange }
      magnitude = sum
    }
    if allDigits {
      if negative {
        guard magnitude <= UInt64(Int64.max) + 1 else { return .outOfRange }
        return .value(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
      }
      guard magnitude <= UInt64(Int64.max) else { return .outOfRange }
      return .value(Int64(magnitude))
    }
    // Decimal or exponent forms ("1.0", "1.5e3"): reuse the JSON number grammar exactly.
    let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    var reader = JSONReader(slice)
    guard case .number? = try? reader.peekKind(), let scan = try? reader.scanNumber(),
      scan.end == slice.count
    else { return .notANumber }
    guard let value = reader.integerValue(scan) else { return .outOfRange }
    return .value(value)
  }

  /// Reads `true`/`false`/`1`/`0`/`yes`/`no` in any case, ignoring spaces, without
  /// allocating: these flags appear twice in every transaction of a stored response.
  @usableFromInline
  static func parseBoolean(_ bytes: UnsafeRawBufferPointer) -> Bool?? {
    var start = 0
    var end = bytes.count
    while start < end, bytes[start] == 0x20 { start += 1 }
    while end > start, bytes[end - 1] == 0x20 { end -= 1 }
    func matches(_ word: StaticString) -> Bool {
      guard end - start == word.utf8CodeUnitCount else { return false }
      for index in 0..<word.utf8CodeUnitCount {
        var byte = bytes[start + index]
        if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 32 }
        if byte != word.utf8Start[index] { return false }
      }
      return true
    }
    if start == end { return .some(nil) }
    if matches("true") || matches("1") || matches("yes") { return .some(true) }
    if matches("false") || matches("0") || matches("no") { return .some(false) }
    return .none
  }
}
