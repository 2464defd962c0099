/// The presence bits of one group of optional fields, consumed one field at a time in the
/// order the group was written (see ``CompactReader/mask(of:)``).
public struct CompactMask {
  private var bits: UInt64

  init(bits: UInt64) {
    self.bits = bits
  }

  /// Whether the next field is present (or, for a flag, set).
  public mutating func next() -> Bool {
    defer { bits >>= 1 }
    return bits & 1 == 1
  }

  /// Whether any bit beyond the group's fields is set (the bytes are not ours).
  func hasBitsBeyond(_ count: Int) -> Bool {
    count < 64 && bits >> UInt64(count) != 0
  }
}
