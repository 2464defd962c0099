import COpenSSL

/// Questions about an OpenSSL `EVP_PKEY` that loading code needs answered in words.
enum EVPKeyInspection {
  /// OpenSSL's name for the P-256 curve.
  static let p256GroupName = "prime256v1"

  /// Whether `key` is an elliptic-curve key on P-256.
  static func isP256(_ key: OpaquePointer) -> Bool {
    EVP_PKEY_get_base_id(key) == EVP_PKEY_EC && groupName(of: key) == p256GroupName
  }

  /// What `key` is, for an error message: "an RSA key of 2048 bits", "an EC key on secp384r1
  /// (P-384)". Never includes key material.
  static func describe(_ key: OpaquePointer) -> String {
    let bits = EVP_PKEY_get_bits(key)
    switch EVP_PKEY_get_base_id(key) {
    case EVP_PKEY_RSA, EVP_PKEY_RSA_PSS:
      return "an RSA key of \(bits) bits"
    case EVP_PKEY_EC:
      let group = groupName(of: key) ?? "an unnamed curve"
      let common =
        switch group {
        case "prime256v1": " (P-256)"
        case "secp384r1": " (P-384)"
        case "secp521r1": " (P-521)"
        default: ""
        }
      return "an EC key on \(group)\(common)"
    case EVP_PKEY_ED25519:
      return "an Ed25519 key"
    case EVP_PKEY_DSA:
      return "a DSA key of \(bits) bits"
    default:
      if let name = EVP_PKEY_get0_type_name(key) {
        return "a key of type \(String(cString: name))"
      }
      return "a key of an unknown type"
    }
  }

  private static func groupName(of key: OpaquePointer) -> String? {
    var buffer = [CChar](repeating: 0, count: 64)
    var length = 0
    guard EVP_PKEY_get_group_name(key, &buffer, buffer.count, &length) == 1 else {
      OpenSSLErrorQueue.clear()
      return nil
    }
    return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
