/// A strict, forward-only JSON reader over UTF-8 bytes: the caller walks the document and asks
/// for each value in the type it wants, and the reader never builds a tree.
///
/// It exists because the ingest stage reads gigabytes of stored verifyReceipt responses and the
/// API client verifies thousands of signed payloads per second; Foundation's `JSONDecoder`
/// spends most of that time building intermediate values. The reader validates everything it
/// passes over (grammar, UTF-8, escapes, nesting depth), so a document it accepts is valid JSON
/// even where the caller skipped values.
///
/// The reader borrows the bytes: use it inside `withUnsafeBytes` and do not let it escape.
///
/// ```swift
/// let status = try line.withUnsafeBytes { bytes in
///   var reader = JSONReader(bytes)
///   var status: Int64?
///   try reader.beginObject()
///   while let key = try reader.nextKey() {
///     if key == "status" { status = try reader.readLenientInt64() } else { try reader.skipValue() }
///   }
///   try reader.finish()
///   return status
/// }
/// ```
public struct JSONReader {
  @usableFromInline let base: UnsafePointer<UInt8>
  @usableFromInline let count: Int
  /// The offset of the next unread byte.
  public var offset: Int { position }
  @usableFromInline var position: Int
  @usableFromInline var state: State
  @usableFromInline var depth: Int
  /// The deepest container nesting the reader accepts before failing with `nestingTooDeep`.
  public let maximumDepth: Int

  @usableFromInline enum State: UInt8 {
    /// A value must come next (top level, after a key, or after an array comma).
    case expectingValue
    /// Just after `{` or `[`: a key, an element or the closing bracket may come.
    case containerStart
    /// A value was just read inside a container (or at the top level).
    case afterValue
  }

  /// Creates a reader over a buffer of UTF-8 bytes.
  ///
  /// - Parameters:
  ///   - bytes: the document; it must stay valid while the reader is used.
  ///   - maximumDepth: the deepest nesting accepted; hostile input cannot exhaust the stack.
  public init(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int = 256) {
    // An empty buffer may have no base address; point at a static byte so reads stay defined.
    if let start = bytes.baseAddress {
      self.base = start.assumingMemoryBound(to: UInt8.self)
    } else {
      self.base = JSONReader.emptyBase
    }
    self.count = bytes.count
    self.position = 0
    self.state = .expectingValue
    self.depth = 0
    self.maximumDepth = maximumDepth
  }

  // Never written through and never read (every read is guarded by `position < count`), so
  // sharing it between threads is safe.
  nonisolated(unsafe) private static let emptyBase: UnsafePointer<UInt8> = {
    let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    pointer.initialize(to: 0)
    return UnsafePointer(pointer)
  }()

  /// Whether every byte has been consumed (ignoring trailing whitespace).
  public var isAtEnd: Bool {
    mutating get {
      skipWhitespace()
      return position >= count
    }
  }

  // MARK: - Structure

  /// The kind of the next value, without consuming it.
  ///
  /// - Returns: the kind, judged by the value's first byte.
  /// - Throws: `JSONError` when the input ends or the byte cannot start a value.
  @inlinable
  public mutating func peekKind() throws(JSONError) -> JSONValueKind {
    skipWhitespace()
    guard position < count else {
      let isEmpty = depth == 0 && state == .expectingValue
      throw JSONError(isEmpty ? .emptyDocument : .unexpectedEnd, at: position)
    }
    switch base[position] {
    case UInt8(ascii: "{"): return .object
    case UInt8(ascii: "["): return .array
    case UInt8(ascii: "\""): return .string
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
    case UInt8(ascii: "n"): return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
    case let byte: throw JSONError(.unexpectedByte(byte, expected: "a JSON value"), at: position)
    }
  }

  /// Consumes the `{` that opens an object; then call ``nextKey()`` until it returns `nil`.
  ///
  /// - Throws: `JSONError.typeMismatch` when the next value is not an object.
  @inlinable
  public mutating func beginObject() throws(JSONError) {
    try openContainer(UInt8(ascii: "{"), kind: .object)
  }

  /// Consumes the `[` that opens an array; then call ``nextElement()`` until it returns `false`.
  ///
  /// - Throws: `JSONError.typeMismatch` when the next value is not an array.
  @inlinable
  public mutating func beginArray() throws(JSONError) {
    try openContainer(UInt8(ascii: "["), kind: .array)
  }

  /// Moves to the next key of the current object and consumes its `:`; the caller must then
  /// read or skip the value.
  ///
  /// - Returns: the key, or `nil` after consuming the object's closing `}`.
  /// - Throws: `JSONError` on malformed input.
  @inlinable
  public mutating func nextKey() throws(JSONError) -> JSONKey? {
    guard try advanceInContainer(closing: UInt8(ascii: "}"), expected: "',' or '}'") else {
      return nil
    }
    guard position < count else { throw JSONError(.unexpectedEnd, at: position) }
    guard base[position] == UInt8(ascii: "\"") else {
      throw JSONError(.unexpectedByte(base[position], expected: "a string key"), at: position)
    }
    let key = try scanKey()
    skipWhitespace()
    guard position < count else { throw JSONError(.unexpectedEnd, at: position) }
    guard base[position] == UInt8(ascii: ":") else {
      throw JSONError(.unexpectedByte(base[position], expected: "':'"), at: position)
    }
    position += 1
    state = .expectingValue
    return key
  }

  /// Moves to the next element of the current array; the caller must then read or skip it.
  ///
  /// - Returns: `true` when an element follows, `false` after consuming the closing `]`.
  /// - Throws: `JSONError` on malformed input.
  @inlinable
  public mutating func nextElement() throws(JSONError) -> Bool {
    guard try advanceInContainer(closing: UInt8(ascii: "]"), expected: "',' or ']'") else {
      return false
    }
    state = .expectingValue
    return true
  }

  /// Checks that nothing but whitespace follows the top-level value.
  ///
  /// - Throws: `JSONError.trailingData` when something does.
  public mutating func finish() throws(JSONError) {
    skipWhitespace()
    guard position >= count else { throw JSONError(.trailingData, at: position) }
  }

  // MARK: - Internals shared by the extensions

  @inlinable
  mutating func openContainer(_ opening: UInt8, kind: JSONValueKind) throws(JSONError) {
    skipWhitespace()
    guard position < count else { throw JSONError(.unexpectedEnd, at: position) }
    guard base[position] == opening else {
      throw try mismatch(expected: kind.description)
    }
    guard depth < maximumDepth else {
      throw JSONError(.nestingTooDeep(limit: maximumDepth), at: position)
    }
    depth += 1
    position += 1
    state = .containerStart
  }

  /// Handles the separator or the closing bracket before a key or an element.
  /// Returns `false` when the container was closed.
  @inlinable
  mutating func advanceInContainer(closing: UInt8, expected: String) throws(JSONError) -> Bool {
    skipWhitespace()
    guard position < count else { throw JSONError(.unexpectedEnd, at: position) }
    let byte = base[position]
    if byte == closing && state != .expectingValue {
      position += 1
      depth -= 1
      state = .afterValue
      return false
    }
    switch state {
    case .containerStart:
      return true
    case .afterValue:
      guard byte == UInt8(ascii: ",") else {
        throw JSONError(.unexpectedByte(byte, expected: expected), at: position)
      }
      position += 1
      skipWhitespace()
      guard position < count else { throw JSONError(.unexpectedEnd, at: position) }
      if base[position] == closing {
        throw JSONError(.unexpectedByte(closing, expected: "a value after ','"), at: position)
      }
      return true
    case .expectingValue:
      // The caller asked for the next key or element without reading the current value.
      throw JSONError(.unexpectedByte(byte, expected: "the value to be read first"), at: position)
    }
  }

  @inlinable
  mutating func skipWhitespace() {
    while position < count {
      switch base[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  /// Builds the error for a value of the wrong kind, naming what was found.
  @inlinable
  mutating func mismatch(expected: String) throws(JSONError) -> JSONError {
    let found = try peekKind()
    return JSONError(.typeMismatch(expected: expected, found: found), at: position)
  }

  /// Consumes an exact literal such as `true`.
  @inlinable
  mutating func consumeLiteral(_ literal: StaticString) throws(JSONError) {
    let length = literal.utf8CodeUnitCount
    guard position + length <= count else {
      // Report the first byte that differs, or the end of input.
      var index = 0
      while position + index < count {
        if base[position + index] != literal.utf8Start[index] {
          throw JSONError(
            .unexpectedByte(base[position + index], expected: "'\(literal)'"), at: position + index)
        }
        index += 1
      }
      throw JSONError(.unexpectedEnd, at: count)
    }
    for index in 0..<length where base[position + index] != literal.utf8Start[index] {
      throw JSONError(
        .unexpectedByte(base[position + index], expected: "'\(literal)'"), at: position + index)
    }
    position += length
  }
}
