// MARK: - Booleans, null, skipping

extension JSONReader {
  /// Reads `true` or `false`.
  ///
  /// - Returns: the boolean.
  /// - Throws: `JSONError.typeMismatch` for any other value.
  @inlinable
  public mutating func readBool() throws(JSONError) -> Bool {
    skipWhitespace()
    guard position < count else { throw JSONError(.unexpectedEnd, at: position) }
    switch base[position] {
    case UInt8(ascii: "t"):
      try consumeLiteral("true")
      state = .afterValue
      return true
    case UInt8(ascii: "f"):
      try consumeLiteral("false")
      state = .afterValue
      return false
    default:
      throw try mismatch(expected: "a boolean")
    }
  }

  /// Consumes a `null` if one comes next.
  ///
  /// - Returns: `true` when a `null` was consumed, `false` (consuming nothing) otherwise.
  /// - Throws: `JSONError` when the input ends or holds a malformed literal.
  @inlinable
  public mutating func readNullIfPresent() throws(JSONError) -> Bool {
    skipWhitespace()
    guard position < count else { throw JSONError(.unexpectedEnd, at: position) }
    guard base[position] == UInt8(ascii: "n") else { return false }
    try consumeLiteral("null")
    state = .afterValue
    return true
  }

  /// Skips the next value of any kind, validating it completely.
  ///
  /// - Returns: the byte range the value occupied.
  /// - Throws: `JSONError` when the value is malformed or nested too deeply.
  @discardableResult
  public mutating func skipValue() throws(JSONError) -> Range<Int> {
    skipWhitespace()
    let start = position
    try skipAnyValue()
    state = .afterValue
    return start..<position
  }

  @usableFromInline
  mutating func skipAnyValue() throws(JSONError) {
    switch try peekKind() {
    case .string:
      _ = try scanString()
    case .number:
      _ = try scanNumber()
    case .bool:
      try consumeLiteral(base[position] == UInt8(ascii: "t") ? "true" : "false")
    case .null:
      try consumeLiteral("null")
    case .object:
      try beginObject()
      while try nextKey() != nil {
        try skipAnyValue()
        state = .afterValue
      }
    case .array:
      try beginArray()
      while try nextElement() {
        try skipAnyValue()
        state = .afterValue
      }
    }
  }
}
