/// Hexadecimal text for bytes (digests, fingerprints, serial numbers).
public enum Hex {
  /// `bytes` as two hexadecimal digits each, without separators.
  ///
  /// - Parameters:
  ///   - bytes: The bytes to encode.
  ///   - uppercase: Whether to use `A`–`F` rather than `a`–`f`.
  /// - Returns: Text of `2 * bytes.count` characters.
  public static func encode(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
    let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }
}
