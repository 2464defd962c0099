/// Reads what ``CompactWriter`` wrote, checking every length and number against the bytes that
/// are actually there: damaged bytes throw ``CompactResponseError``, never trap.
struct CompactReader {
  private let bytes: [UInt8]
  /// The offset of the next byte to read.
  private(set) var offset = 0
  /// The strings read in full so far, by number.
  private var strings: [String] = []

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Whether every byte has been read.
  var isAtEnd: Bool { offset == bytes.count }

  /// The number of bytes not yet read.
  var remaining: Int { bytes.count - offset }

  /// The error for damaged bytes at the current offset, for the caller to throw.
  func damaged(_ reason: String) -> CompactResponseError {
    CompactResponseError(offset: offset, reason: reason)
  }

  /// Reads one byte.
  mutating func byte() throws(CompactResponseError) -> UInt8 {
    guard offset < bytes.count else { throw damaged("the bytes end early") }
    defer { offset += 1 }
    return bytes[offset]
  }

  /// Reads an unsigned LEB128 integer of at most ten bytes.
  mutating func unsigned() throws(CompactResponseError) -> UInt64 {
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
  mutating func signed() throws(CompactResponseError) -> Int64 {
    let raw = try unsigned()
    return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
  }

  /// Reads a count of items each at least one byte long: never more than the bytes left.
  mutating func count() throws(CompactResponseError) -> Int {
    let value = try unsigned()
    guard value <= UInt64(remaining) else {
      throw damaged("a count of \(value) with only \(remaining) bytes left")
    }
    return Int(value)
  }

  /// Reads a string written in full or by number.
  mutating func string() throws(CompactResponseError) -> String {
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
    guard let value = String(validating: bytes[offset..<end], as: UTF8.self) else {
      throw damaged("a string that is not UTF-8")
    }
    offset = end
    strings.append(value)
    return value
  }
}
