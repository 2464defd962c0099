import COpenSSL

/// SHA-256, computed by OpenSSL.
///
/// The one-shot functions are the fast path for small inputs (JWS signing input, certificates);
/// use ``SHA256Hasher`` for input that arrives in pieces.
public enum SHA256 {
  /// The size of a SHA-256 digest in bytes.
  public static let digestByteCount = 32

  /// The SHA-256 digest of `bytes`.
  ///
  /// - Parameter bytes: The input.
  /// - Returns: The 32-byte digest.
  public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    bytes.withContiguousBytes { input in
      [UInt8](unsafeUninitializedCapacity: digestByteCount) { digest, count in
        hash(input, into: digest.baseAddress)
        count = digestByteCount
      }
    }
  }

  /// The SHA-256 digest of `bytes` as hexadecimal text.
  ///
  /// - Parameters:
  ///   - bytes: The input.
  ///   - uppercase: Whether to use `A`–`F` (the form certificate fingerprints are quoted in).
  /// - Returns: 64 hexadecimal digits.
  public static func hexDigest(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
    Hex.encode(hash(bytes), uppercase: uppercase)
  }

  /// Hashes `input` into the 32 bytes at `digest`.
  static func hash(_ input: UnsafeRawBufferPointer, into digest: UnsafeMutablePointer<UInt8>?) {
    // The low-level one-shot `SHA256` is not deprecated in OpenSSL 3 and avoids allocating a
    // digest context per call, which matters on the signature-verification hot path.
    let empty: UInt8 = 0
    withUnsafePointer(to: empty) { emptyPointer in
      let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? emptyPointer
      _ = COpenSSL.SHA256(base, input.count, digest)
    }
  }
}
