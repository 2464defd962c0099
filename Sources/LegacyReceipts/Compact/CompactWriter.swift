/// Appends the compact form's primitives to a byte buffer: unsigned LEB128 integers, zig-zag
/// signed integers, and strings written once per response and referred to by number after that.
///
/// A response repeats the same few strings in every transaction (the product, the subscription
/// group, the original transaction id of every renewal), so each distinct string is written in
/// full only the first time; see ``CompactReader`` for the other half.
struct CompactWriter {
  /// The bytes written so far.
  private(set) var bytes: [UInt8] = []
  /// The strings written in full so far, by their number in order of first appearance.
  private var numbers: [String: UInt64] = [:]

  /// Appends an unsigned integer, seven bits per byte, low bits first.
  mutating func unsigned(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  /// Appends a signed integer, zig-zag mapped so that small negative values stay short.
  mutating func signed(_ value: Int64) {
    unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  /// Appends one byte.
  mutating func byte(_ value: UInt8) {
    bytes.append(value)
  }

  /// Appends a string: `2 × length` and its UTF-8 bytes the first time, `2 × number + 1` after.
  mutating func string(_ value: String) {
    if let number = numbers[value] {
      unsigned(number << 1 | 1)
      return
    }
    numbers[value] = UInt64(numbers.count)
    var value = value
    value.withUTF8 { utf8 in
      unsigned(UInt64(utf8.count) << 1)
      bytes.append(contentsOf: utf8)
    }
  }
}
