import Chronology

/// Appends the compact form's primitives to a byte buffer: unsigned LEB128 integers, zig-zag
/// signed integers, flags, instants, and strings written once per value and referred to by
/// number after that.
///
/// A stored value repeats the same few strings many times over (the product, the subscription
/// group, the original transaction id of every renewal), so each distinct string is written in
/// full only the first time; see ``CompactReader`` for the other half. Groups of optional
/// fields are written with ``group(_:)``: a bit mask of the present fields, then their values.
public struct CompactWriter {
  /// The bytes written so far.
  public private(set) var bytes: [UInt8] = []
  /// The strings written in full so far, by their number in order of first appearance.
  private var numbers: [String: UInt64] = [:]

  /// Creates an empty writer.
  public init() {}

  /// Appends an unsigned integer, seven bits per byte, low bits first.
  public mutating func unsigned(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      byte(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    byte(UInt8(rest))
  }

  /// Appends a signed integer, zig-zag mapped so that small negative values stay short.
  public mutating func signed(_ value: Int64) {
    unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  /// Appends one byte.
  public mutating func byte(_ value: UInt8) {
    bytes.append(value)
  }

  /// Appends a flag as one byte, `1` for true.
  public mutating func bool(_ value: Bool) { byte(value ? 1 : 0) }

  /// Appends an instant as its signed milliseconds since 1970.
  public mutating func timestamp(_ value: Timestamp) { signed(value.millisecondsSince1970) }

  /// Appends a string: `2 × length` and its UTF-8 bytes the first time, `2 × number + 1` after.
  public mutating func string(_ value: String) {
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

  /// Writes one group of optional fields: the mask of present fields, then their values in
  /// order. `fill` is called twice, so it must name the same fields in the same order both
  /// times (it only describes the fields; ``CompactFields`` decides what each pass does).
  public mutating func group(_ fill: (inout CompactFields) -> Void) {
    var counting = CompactFields(isWriting: false)
    fill(&counting)
    unsigned(counting.mask)
    // The writer is swapped in and back rather than copied, so its buffer is never shared
    // (a shared buffer would be copied whole on the next append).
    var writing = CompactFields(isWriting: true)
    swap(&self, &writing.writer)
    fill(&writing)
    swap(&self, &writing.writer)
  }
}
