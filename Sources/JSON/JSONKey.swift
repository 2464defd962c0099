/// An object key as read by ``JSONReader``: a view of the key's UTF-8 bytes that stays valid
/// until the reader moves on. Comparing it with a string literal costs no allocation, so hot
/// decoders can `switch` on keys.
///
/// ```swift
/// while let key = try reader.nextKey() {
///   switch key {
///   case "status": status = try reader.readLenientInt64()
///   default: try reader.skipValue()
///   }
/// }
/// ```
public struct JSONKey: CustomStringConvertible {
  @usableFromInline let storage: Storage

  @usableFromInline enum Storage {
    /// The key's bytes inside the reader's buffer (no escapes were present).
    case borrowed(UnsafeRawBufferPointer)
    /// The unescaped key, copied because it contained escape sequences.
    case owned([UInt8])
  }

  @usableFromInline init(_ storage: Storage) { self.storage = storage }

  /// The key as a Swift string.
  public var description: String {
    switch storage {
    case .borrowed(let bytes): return String(decoding: bytes, as: UTF8.self)
    case .owned(let bytes): return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// Whether the key equals the given literal, compared byte by byte.
  ///
  /// Always inlined: decoders compare each key with dozens of literals, and the length check
  /// that rejects almost all of them must not pay for a call.
  ///
  /// - Parameters:
  ///   - key: the key read from the document.
  ///   - literal: a string literal such as `"expires_date_ms"`.
  /// - Returns: `true` when the UTF-8 bytes are identical.
  @inlinable @inline(__always)
  public static func == (key: JSONKey, literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    switch key.storage {
    case .borrowed(let bytes):
      guard bytes.count == count else { return false }
      guard let base = bytes.baseAddress else { return count == 0 }
      return memoryEqual(base, literal.utf8Start, count)
    case .owned(let bytes):
      guard bytes.count == count else { return false }
      return bytes.withUnsafeBytes { buffer in
        guard let base = buffer.baseAddress else { return count == 0 }
        return memoryEqual(base, literal.utf8Start, count)
      }
    }
  }

  /// Pattern matching against a literal, so keys can be used in `switch` statements.
  ///
  /// - Parameters:
  ///   - pattern: the literal of a `case` label.
  ///   - key: the key being switched on.
  /// - Returns: whether they are equal.
  @inlinable @inline(__always)
  public static func ~= (pattern: StaticString, key: JSONKey) -> Bool {
    key == pattern
  }
}

@usableFromInline
func memoryEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafePointer<UInt8>, _ count: Int) -> Bool {
  var index = 0
  while index < count {
    if lhs.load(fromByteOffset: index, as: UInt8.self) != rhs[index] { return false }
    index += 1
  }
  return true
}
