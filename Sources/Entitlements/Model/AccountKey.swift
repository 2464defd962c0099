#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An account id as a key of a dictionary or a set: equal, hashed and ordered by its UTF-8
/// bytes.
///
/// The store keeps account ids as SQLite text, which it compares byte by byte, so `jos\u{E9}`
/// (one scalar) and `jose\u{301}` (a letter and a combining accent) are two accounts there.
/// Swift's `String` treats the two as equal (canonical equivalence), so a `[String: …]` keyed by
/// account id silently merges them: one account receives the other's rows, token or link. Key
/// by `AccountKey` wherever account ids from the team's data can meet.
public struct AccountKey: Hashable, Comparable, Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The account id, exactly as read.
  public let id: String

  /// Wraps an account id.
  ///
  /// - Parameter id: the account id.
  public init(_ id: String) {
    self.id = id
  }

  /// Wraps a literal account id.
  ///
  /// - Parameter value: the account id.
  public init(stringLiteral value: String) {
    self.id = value
  }

  /// The id itself.
  public var description: String { id }

  /// Whether the two ids have the same bytes.
  public static func == (lhs: AccountKey, rhs: AccountKey) -> Bool {
    Self.haveSameBytes(lhs.id, rhs.id)
  }

  /// Whether `lhs`'s bytes sort before `rhs`'s: SQLite's `BINARY` collation, the order the store
  /// lists accounts in.
  public static func < (lhs: AccountKey, rhs: AccountKey) -> Bool {
    lhs.id.utf8.lexicographicallyPrecedes(rhs.id.utf8)
  }

  /// Hashes the bytes (and their count, so that the hash of a key is not a prefix of another's).
  public func hash(into hasher: inout Hasher) {
    let hashed: Void? = id.utf8.withContiguousStorageIfAvailable { bytes in
      hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
    }
    if hashed == nil {
      for byte in id.utf8 { hasher.combine(byte) }
    }
    hasher.combine(id.utf8.count)
  }

  /// Whether two strings are the same bytes: what `==` on `String` is not.
  ///
  /// - Parameters:
  ///   - lhs: one string.
  ///   - rhs: the other.
  /// - Returns: `true` when their UTF-8 forms are equal byte for byte.
  public static func haveSameBytes(_ lhs: String, _ rhs: String) -> Bool {
    guard lhs.utf8.count == rhs.utf8.count else { return false }
    // Native strings are contiguous: one memcmp. A bridged one walks its bytes.
    let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
      rhs.utf8.withContiguousStorageIfAvailable { right in
        // Equal counts: a missing base address means both are empty.
        guard let left = left.baseAddress, let right = right.baseAddress else { return true }
        return memcmp(left, right, lhs.utf8.count) == 0
      }
    }
    return (compared ?? nil) ?? lhs.utf8.elementsEqual(rhs.utf8)
  }
}
