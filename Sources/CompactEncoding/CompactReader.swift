import Chronology
import Glibc

/// Reads what ``CompactWriter`` wrote, checking every length and number against the bytes that
/// are actually there: damaged bytes throw ``CompactDecodingError``, never trap.
public struct CompactReader {
  private let bytes: [UInt8]
  /// The offset of the next byte to read.
  public private(set) var offset = 0
  /// The strings read in full so far, by number.
  private var strings: [String] = []

  /// Creates a reader of `bytes`, from the first.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Whether every byte has been read.
  public var isAtEnd: Bool { offset == bytes.count }

  /// The number of bytes not yet read.
  public var remaining: Int { bytes.count - offset }

  /// The error for damaged bytes at the current offset, for the caller to throw.
  public func damaged(_ reason: String) -> CompactDecodingError {
    CompactDecodingError(offset: offset, reason: reason)
  }

  /// Reads one byte.
  public mutating func byte() throws(CompactDecodingError) -> UInt8 {
    guard offset < bytes.count else { throw damaged("the bytes end early") }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// Reads an unsigned LEB128 integer of at most ten bytes.
  public mutating func unsigned() throws(CompactDecodingError) -> UInt64 {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let next = try byte()
      guard shift < 63 || (shift == 63 && next <= 1) else {
        throw damaged("an integer longer than 64 bits")
      }
      value |= UInt64(next & 0x7F) << shift
      if next & 0x80 == 0 { return value }
      shift += 7
    }
  }

  /// Reads a zig-zag signed integer.
  public mutating func signed() throws(CompactDecodingError) -> Int64 {
    let raw = try unsigned()
    return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
  }

  /// Reads a count of items each at least one byte long: never more than the bytes left.
  public mutating func count() throws(CompactDecodingError) -> Int {
    let value = try unsigned()
    guard value <= UInt64(remaining) else {
      throw damaged("a count of \(value) with only \(remaining) bytes left")
    }
    return Int(value)
  }

  /// Reads a flag written as `0` or `1`.
  public mutating func bool() throws(CompactDecodingError) -> Bool {
    switch try byte() {
    case 0: return false
    case 1: return true
    case let other: throw damaged("\(other) where a flag of 0 or 1 belongs")
    }
  }

  /// Reads an instant written as milliseconds since 1970.
  public mutating func timestamp() throws(CompactDecodingError) -> Timestamp {
    Timestamp(millisecondsSince1970: try signed())
  }

  /// Reads a string written in full or by number.
  public mutating func string() throws(CompactDecodingError) -> String {
    let tag = try unsigned()
    if tag & 1 == 1 {
      let number = tag >> 1
      guard number < UInt64(strings.count) else {
        throw damaged("string number \(number) of only \(strings.count)")
      }
      return strings[Int(number)]
    }
    let length = tag >> 1
    guard length <= UInt64(remaining) else {
      throw damaged("a string of \(length) bytes with only \(remaining) left")
    }
    let end = offset + Int(length)
    let start = offset
    guard let value = bytes.withUnsafeBufferPointer({ Self.utf8String($0[start..<end]) }) else {
      throw damaged("a string that is not UTF-8")
    }
    offset = end
    strings.append(value)
    return value
  }

  /// The string `bytes` spell, when they are well-formed UTF-8.
  ///
  /// Decoding never fails: it puts U+FFFD in place of each ill-formed sequence, and its result
  /// is well-formed, so the bytes were well-formed exactly when the result spells them back.
  /// `String(validating:as:)` gives the same answer, but it is generic over the sequence it
  /// reads and ran unspecialized here: looking up its generic metadata cost more than the
  /// decoding, about 5 % of `compare`'s CPU, which reads a dozen strings per transaction.
  ///
  /// - Parameter bytes: the bytes.
  /// - Returns: the string, or `nil` when the bytes are not UTF-8.
  static func utf8String(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String? {
    let raw = UnsafeBufferPointer(rebasing: bytes)
    var value = String(decoding: raw, as: UTF8.self)
    let same = value.withUTF8 { spelled in
      spelled.count == raw.count
        && (raw.isEmpty || memcmp(spelled.baseAddress!, raw.baseAddress!, raw.count) == 0)
    }
    return same ? value : nil
  }

  /// Reads a group's mask and checks it names no field the group does not have.
  ///
  /// - Parameter fieldCount: the number of fields and flags the group was written with.
  public mutating func mask(of fieldCount: Int) throws(CompactDecodingError) -> CompactMask {
    let mask = CompactMask(bits: try unsigned())
    guard !mask.hasBitsBeyond(fieldCount) else {
      throw damaged("a field mask naming fields beyond the \(fieldCount) of its group")
    }
    return mask
  }

  /// Reads a count, then that many items.
  public mutating func list<Item>(
    _ item: (inout CompactReader) throws(CompactDecodingError) -> Item
  ) throws(CompactDecodingError) -> [Item] {
    let count = try count()
    var items: [Item] = []
    items.reserveCapacity(count)
    for _ in 0..<count { items.append(try item(&self)) }
    return items
  }
}
