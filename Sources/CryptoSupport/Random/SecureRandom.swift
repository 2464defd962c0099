import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's CSPRNG.
public enum SecureRandom {
  /// `count` random bytes.
  ///
  /// - Parameter count: How many bytes; zero or more.
  /// - Returns: The bytes.
  /// - Throws: ``CryptoError`` if the count is negative or OpenSSL's generator is not seeded
  ///   (which on Linux means the kernel's random source is unavailable).
  public static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
    guard count >= 0, count <= Int(Int32.max) else {
      throw CryptoError(.invalidArgument, "cannot generate \(count) random bytes")
    }
    var bytes = [UInt8](repeating: 0, count: count)
    guard count == 0 || RAND_bytes(&bytes, Int32(count)) == 1 else {
      throw CryptoError(
        .operationFailed,
        "OpenSSL's random generator failed; check that /dev/urandom or getrandom() is available")
    }
    return bytes
  }
}
