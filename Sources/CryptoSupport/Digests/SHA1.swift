import COpenSSL

/// SHA-1, computed by OpenSSL.
///
/// SHA-1 is broken for collision resistance and is here for one reason only: name-based UUIDs
/// (version 5, RFC 9562 §5.5) are defined over it, and a team's existing tokens must come out
/// bit for bit the same as every other implementation's. Never use it to protect anything.
public enum SHA1 {
  /// The size of a SHA-1 digest in bytes.
  public static let digestByteCount = 20

  /// The SHA-1 digest of `bytes`.
  ///
  /// - Parameter bytes: The input.
  /// - Returns: The 20-byte digest.
  public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
    bytes.withContiguousBytes { input in
      [UInt8](unsafeUninitializedCapacity: digestByteCount) { digest, count in
        let empty: UInt8 = 0
        withUnsafePointer(to: empty) { emptyPointer in
          let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? emptyPointer
          _ = COpenSSL.SHA1(base, input.count, digest.baseAddress)
        }
        count = digestByteCount
      }
    }
  }
}
