import Glibc

/// The last text read for one field of a receipt's purchases, to share one string between the
/// purchases that repeat it: every renewal of a subscription repeats its product id and original
/// transaction id, and a string of 16 or more bytes costs an allocation.
struct RepeatedText {
  private var octets: [UInt8] = []
  private var text: String?

  /// The text `octets` encode: the remembered string if they are the same octets as last time,
  /// else a new one from `decode`, which is remembered in turn.
  mutating func text<Failure: Error>(
    for octets: UnsafeBufferPointer<UInt8>, decode: () throws(Failure) -> String
  ) throws(Failure) -> String {
    if let text, octets.count == self.octets.count, Self.equal(octets, self.octets) {
      return text
    }
    let decoded = try decode()
    self.octets = Array(octets)
    self.text = decoded
    return decoded
  }

  /// The text `octets` encode, as ``text(for:decode:)`` with a slice.
  mutating func text<Failure: Error>(
    for octets: ArraySlice<UInt8>, decode: () throws(Failure) -> String
  ) throws(Failure) -> String {
    try octets.withUnsafeBufferPointer { buffer throws(Failure) in
      try text(for: buffer, decode: decode)
    }
  }

  private static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: [UInt8]) -> Bool {
    rhs.withUnsafeBufferPointer { rhs in
      guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
      return memcmp(left, right, lhs.count) == 0
    }
  }
}
