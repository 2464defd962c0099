/// Decoding of `%HH` escapes in request targets (RFC 3986 §2.1).
enum PercentDecoding {
  /// Decodes every `%HH` escape and checks that the result is UTF-8.
  ///
  /// - Returns: The decoded text, or `nil` when a `%` is not followed by two hexadecimal digits or
  ///   the decoded bytes are not UTF-8.
  static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
    guard bytes.contains(ASCII.percent) else {
      return String(validating: bytes, as: UTF8.self)
    }
    var decoded: [UInt8] = []
    decoded.reserveCapacity(bytes.count)
    var iterator = bytes.makeIterator()
    while let byte = iterator.next() {
      guard byte == ASCII.percent else {
        decoded.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(ASCII.hexDigitValue),
        let low = iterator.next().flatMap(ASCII.hexDigitValue)
      else { return nil }
      decoded.append(UInt8(high << 4 | low))
    }
    return String(validating: decoded, as: UTF8.self)
  }
}
