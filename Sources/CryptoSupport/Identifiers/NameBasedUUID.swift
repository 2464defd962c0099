/// Name-based UUIDs, version 5 (RFC 9562 §5.5, formerly RFC 4122 §4.3): the same namespace and
/// name always give the same UUID, on any machine and in any language.
///
/// This is how a team can derive an `appAccountToken` from its own account id without keeping a
/// table: Python's `uuid.uuid5(namespace, account_id)`, Java's and Swift's equivalents and this
/// type all agree.
public enum NameBasedUUID {
  /// The UUID version 5 of `name` in `namespace`.
  ///
  /// - Parameters:
  ///   - name: The name, hashed as its UTF-8 bytes.
  ///   - namespace: The namespace UUID's 16 bytes, in network order.
  /// - Returns: The UUID's 16 bytes.
  public static func version5(name: String, namespace: [UInt8]) -> [UInt8] {
    precondition(namespace.count == 16, "a namespace UUID has 16 bytes")
    var bytes = Array(SHA1.hash(namespace + Array(name.utf8)).prefix(16))
    bytes[6] = (bytes[6] & 0x0F) | 0x50  // version 5
    bytes[8] = (bytes[8] & 0x3F) | 0x80  // the RFC's variant, 10xx
    return bytes
  }

  /// The UUID version 5 of `name` in `namespace`, as lower-case text.
  ///
  /// - Parameters:
  ///   - name: The name, hashed as its UTF-8 bytes.
  ///   - namespace: The namespace UUID as text (`8-4-4-4-12` hexadecimal digits).
  /// - Returns: The UUID as `8-4-4-4-12` lower-case hexadecimal digits, or `nil` when
  ///   `namespace` is not a UUID.
  public static func version5(name: String, namespace: String) -> String? {
    guard let bytes = bytes(of: namespace) else { return nil }
    return text(of: version5(name: name, namespace: bytes))
  }

  /// The 16 bytes of a UUID written as `8-4-4-4-12` hexadecimal digits (either case).
  ///
  /// - Parameter text: The UUID.
  /// - Returns: The bytes, or `nil` when `text` is not a UUID.
  public static func bytes(of text: String) -> [UInt8]? {
    let characters = Array(text.utf8)
    guard characters.count == 36 else { return nil }
    var bytes: [UInt8] = []
    var high: UInt8?
    for (offset, character) in characters.enumerated() {
      if [8, 13, 18, 23].contains(offset) {
        guard character == UInt8(ascii: "-") else { return nil }
        continue
      }
      guard let nibble = Self.nibble(character) else { return nil }
      if let first = high {
        bytes.append(first << 4 | nibble)
        high = nil
      } else {
        high = nibble
      }
    }
    return bytes
  }

  /// `bytes` (16 of them) as `8-4-4-4-12` lower-case hexadecimal digits.
  ///
  /// - Parameter bytes: The UUID's bytes.
  /// - Returns: The text.
  public static func text(of bytes: [UInt8]) -> String {
    let hex = Array(Hex.encode(bytes).utf8)
    var text: [UInt8] = []
    for (offset, digit) in hex.enumerated() {
      if [8, 12, 16, 20].contains(offset) { text.append(UInt8(ascii: "-")) }
      text.append(digit)
    }
    return String(decoding: text, as: UTF8.self)
  }

  private static func nibble(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
