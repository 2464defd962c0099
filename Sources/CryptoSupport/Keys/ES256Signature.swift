import COpenSSL

/// Conversions between the two encodings of an ECDSA P-256 signature.
///
/// JOSE (JWS, JWT) carries an ES256 signature as 64 bytes: `r` and `s`, each a 32-byte big-endian
/// integer, left-padded with zeros (RFC 7518 §3.4). OpenSSL and X.509 use the DER encoding of
/// `ECDSA-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }`, in which each integer is minimal and
/// has a leading zero byte when its high bit is set. The conversion goes through OpenSSL's own
/// `ECDSA_SIG` codec so that no DER is hand-written here.
public enum ES256Signature {
  /// The length of a JOSE ES256 signature: 32 bytes of `r` followed by 32 bytes of `s`.
  public static let joseByteCount = 64

  /// The largest DER encoding of a P-256 signature: 2 + 2 × (2 + 33) bytes.
  static let maximumDERByteCount = 72

  /// The JOSE `r||s` form of a DER-encoded ECDSA P-256 signature.
  ///
  /// - Parameter der: A DER `ECDSA-Sig-Value`, as OpenSSL produces it.
  /// - Returns: 64 bytes: `r` then `s`, each left-padded to 32 bytes.
  /// - Throws: ``CryptoError`` of kind `.malformedInput` if `der` is not an ECDSA signature or its
  ///   integers do not fit in 32 bytes.
  public static func jose(fromDER der: some Sequence<UInt8>) throws(CryptoError) -> [UInt8] {
    let outcome = der.withContiguousBytes { input -> Result<[UInt8], CryptoError> in
      var jose = [UInt8](repeating: 0, count: joseByteCount)
      let converted = jose.withUnsafeMutableBufferPointer { output in
        convertDER(input, toJOSE: output)
      }
      guard converted else {
        return .failure(
          CryptoError(
            .malformedInput,
            "the \(input.count)-byte ECDSA signature is not a DER ECDSA-Sig-Value with integers "
              + "of at most 32 bytes"))
      }
      return .success(jose)
    }
    return try outcome.get()
  }

  /// The DER encoding of a JOSE `r||s` ES256 signature.
  ///
  /// - Parameter jose: Exactly 64 bytes: `r` then `s`.
  /// - Returns: The DER `ECDSA-Sig-Value`, between 8 and 72 bytes.
  /// - Throws: ``CryptoError`` of kind `.invalidArgument` if `jose` is not 64 bytes long.
  public static func der(fromJOSE jose: some Sequence<UInt8>) throws(CryptoError) -> [UInt8] {
    let outcome = jose.withContiguousBytes { input -> Result<[UInt8], CryptoError> in
      guard input.count == joseByteCount else {
        return .failure(
          CryptoError(
            .invalidArgument,
            "an ES256 signature in JOSE form is \(joseByteCount) bytes (r||s), not "
              + "\(input.count) bytes"))
      }
      var der = [UInt8](repeating: 0, count: maximumDERByteCount)
      let count = der.withUnsafeMutableBufferPointer { output in
        convertJOSE(input, toDER: output)
      }
      guard let count else {
        return .failure(
          CryptoError(.operationFailed, "OpenSSL could not DER-encode an ECDSA signature"))
      }
      return .success(Array(der.prefix(count)))
    }
    return try outcome.get()
  }

  // MARK: - Buffer-level conversions for the hot paths

  /// Writes the 64-byte JOSE form of `der` into `jose`; `false` if `der` is not a P-256 signature.
  static func convertDER(
    _ der: UnsafeRawBufferPointer, toJOSE jose: UnsafeMutableBufferPointer<UInt8>
  ) -> Bool {
    guard jose.count == joseByteCount, let base = der.baseAddress else { return false }
    var cursor: UnsafePointer<UInt8>? = base.assumingMemoryBound(to: UInt8.self)
    guard let signature = d2i_ECDSA_SIG(nil, &cursor, der.count) else {
      OpenSSLErrorQueue.clear()
      return false
    }
    defer { ECDSA_SIG_free(signature) }
    // d2i stops at the end of the SEQUENCE; bytes after it mean the input was not one signature.
    guard let end = cursor, UnsafeRawPointer(end) == base + der.count,
      let r = ECDSA_SIG_get0_r(signature), let s = ECDSA_SIG_get0_s(signature),
      let output = jose.baseAddress,
      BN_bn2binpad(r, output, 32) == 32, BN_bn2binpad(s, output + 32, 32) == 32
    else {
      OpenSSLErrorQueue.clear()
      return false
    }
    return true
  }

  /// Writes the DER form of the 64 bytes at `jose` into `der` (at least 72 bytes) and returns its
  /// length; `nil` if OpenSSL fails to allocate.
  static func convertJOSE(
    _ jose: UnsafeRawBufferPointer, toDER der: UnsafeMutableBufferPointer<UInt8>
  ) -> Int? {
    guard jose.count == joseByteCount, der.count >= maximumDERByteCount,
      let input = jose.baseAddress?.assumingMemoryBound(to: UInt8.self),
      let signature = ECDSA_SIG_new()
    else { return nil }
    defer { ECDSA_SIG_free(signature) }
    guard let r = BN_bin2bn(input, 32, nil) else { return nil }
    guard let s = BN_bin2bn(input + 32, 32, nil) else {
      BN_free(r)
      return nil
    }
    // ECDSA_SIG_set0 takes ownership of r and s, so they are freed with the signature.
    guard ECDSA_SIG_set0(signature, r, s) == 1 else {
      BN_free(r)
      BN_free(s)
      return nil
    }
    var cursor: UnsafeMutablePointer<UInt8>? = der.baseAddress
    let length = i2d_ECDSA_SIG(signature, &cursor)
    guard length > 0, Int(length) <= der.count else {
      OpenSSLErrorQueue.clear()
      return nil
    }
    return Int(length)
  }
}
