import Glibc

/// The last value decoded for one field of a receipt's purchases, to reuse when the next
/// purchase holds the same octets: every renewal of a subscription repeats its product id,
/// original transaction id and original purchase date, and a string of 16 or more bytes costs
/// an allocation.
struct RepeatedValue<Value> {
  private var octets: [UInt8] = []
  private var value: Value?

  /// The value `octets` encode: the remembered one if they are the octets seen last time, else
  /// what `decode` makes of them (remembered in turn), or `nil` if it makes nothing.
  mutating func value(for octets: UnsafeBufferPointer<UInt8>, decode: () -> Value?) -> Value? {
    if let value, octets.count == self.octets.count, Self.equal(octets, self.octets) {
      return value
    }
    guard let decoded = decode() else { return nil }
    self.octets = Array(octets)
    self.value = decoded
    return decoded
  }

  private static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: [UInt8]) -> Bool {
    rhs.withUnsafeBufferPointer { rhs in
      guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
      return memcmp(left, right, lhs.count) == 0
    }
  }
}
