import COpenSSL

/// An elliptic-curve public key on NIST P-256, for verifying ES256 signatures.
///
/// Thread safety: one key may verify signatures from any number of threads at once. The key itself
/// is immutable; each verification takes its own initialized `EVP_PKEY_CTX` from a small pool (see
/// `EVPKeyContextPool`), so no OpenSSL object with mutable state is shared between calls.
public final class P256PublicKey: @unchecked Sendable, Hashable, CustomStringConvertible {
  // @unchecked Sendable is sound: every stored property is a `let`; `key` is an EVP_PKEY that is
  // never mutated after init and that OpenSSL 3 allows to be used from many threads; the
  // verification contexts are guarded by the pool's mutex.

  let key: OpaquePointer
  private let verificationContexts: EVPKeyContextPool

  /// The DER `SubjectPublicKeyInfo` of the key.
  public let derRepresentation: [UInt8]

  // MARK: - Loading

  /// Loads a key from its DER `SubjectPublicKeyInfo`.
  ///
  /// - Parameter derRepresentation: The DER bytes, as in a certificate or `openssl ec -pubout
  ///   -outform DER`.
  /// - Throws: ``CryptoError`` of kind `.malformedInput` if the bytes are not a public key, or
  ///   `.unsupportedKey` if the key is not on P-256.
  public convenience init(derRepresentation: some Sequence<UInt8>) throws(CryptoError) {
    let outcome = derRepresentation.withContiguousBytes {
      der -> Result<OpaquePointer, CryptoError> in
      var cursor = der.baseAddress?.assumingMemoryBound(to: UInt8.self)
      guard let key = d2i_PUBKEY(nil, &cursor, der.count) else {
        return .failure(
          CryptoError(
            .malformedInput,
            "the \(der.count) bytes given as a public key are not a DER SubjectPublicKeyInfo"))
      }
      return .success(key)
    }
    try self.init(takingOwnershipOf: outcome.get(), source: "the DER public key")
  }

  /// Loads a key from PEM text (`-----BEGIN PUBLIC KEY-----`).
  ///
  /// - Parameter pemRepresentation: The PEM text.
  /// - Throws: ``CryptoError`` of kind `.notPEM`, `.unexpectedPEMKind` (naming what was found),
  ///   `.malformedInput` or `.unsupportedKey`.
  public convenience init(pemRepresentation: String) throws(CryptoError) {
    let bytes = Array(pemRepresentation.utf8)
    let labels = PEMLabels.find(in: bytes)
    guard !labels.isEmpty else {
      throw CryptoError(
        .notPEM, "the public key text holds no PEM block; expected -----BEGIN PUBLIC KEY-----")
    }
    guard labels.contains("PUBLIC KEY") else {
      let found = labels.map(PEMLabels.describe).joined(separator: ", ")
      let hint =
        labels.contains("CERTIFICATE")
        ? "; to use a certificate's key, load it as an X509Certificate and take its publicKey"
        : ""
      throw CryptoError(
        .unexpectedPEMKind,
        "the public key text holds \(found), not a public key (-----BEGIN PUBLIC KEY-----)\(hint)")
    }
    let bio = try MemoryBIO(copying: bytes)
    guard let key = PEM_read_bio_PUBKEY(bio.pointer, nil, nil, nil) else {
      throw CryptoError(
        .malformedInput, "the PUBLIC KEY block of the public key text does not decode")
    }
    try self.init(takingOwnershipOf: key, source: "the PEM public key")
  }

  /// The public key of a certificate.
  ///
  /// - Parameter certificate: The certificate whose subject key to take.
  /// - Throws: ``CryptoError`` of kind `.unsupportedKey` if the certificate's key is not P-256.
  public convenience init(certificate: X509Certificate) throws(CryptoError) {
    guard let key = X509_get_pubkey(certificate.certificate) else {
      throw CryptoError(
        .malformedInput,
        "the certificate \"\(certificate.subject)\" has a public key OpenSSL cannot decode")
    }
    try self.init(
      takingOwnershipOf: key, source: "the key of certificate \"\(certificate.subject)\"")
  }

  /// Wraps `key`, which this object frees; frees it and throws if it is not a P-256 key.
  init(takingOwnershipOf key: OpaquePointer, source: String) throws(CryptoError) {
    guard EVPKeyInspection.isP256(key) else {
      let found = EVPKeyInspection.describe(key)
      EVP_PKEY_free(key)
      throw CryptoError(
        .unsupportedKey, "\(source) is \(found); ES256 needs an EC key on P-256 (prime256v1)")
    }
    var der: UnsafeMutablePointer<UInt8>?
    let length = i2d_PUBKEY(key, &der)
    guard length > 0, let der else {
      EVP_PKEY_free(key)
      throw CryptoError(.operationFailed, "OpenSSL could not encode \(source)")
    }
    // i2d allocated `der` with OPENSSL_malloc; OPENSSL_free is a macro over CRYPTO_free.
    derRepresentation = Array(UnsafeBufferPointer(start: der, count: Int(length)))
    CRYPTO_free(der, #fileID, #line)
    self.key = key
    verificationContexts = EVPKeyContextPool(key: key, operation: .verify)
  }

  deinit {
    EVP_PKEY_free(key)
  }

  // MARK: - Export

  /// The key as PEM text (`-----BEGIN PUBLIC KEY-----`).
  public var pemRepresentation: String {
    PEMText.encode(derRepresentation, label: "PUBLIC KEY")
  }

  // MARK: - ES256 verification

  /// Whether `signature` is a valid ES256 signature of `message` by this key.
  ///
  /// - Parameters:
  ///   - signature: The JOSE form: exactly 64 bytes, `r||s`. Any other length is invalid.
  ///   - message: The signed bytes (for a JWS, `header.payload` as ASCII).
  /// - Returns: `true` only if the signature verifies; `false` for a wrong length, values out of
  ///   range, a different message or a different key.
  public func isValidSignature(
    _ signature: some Sequence<UInt8>, for message: some Sequence<UInt8>
  ) -> Bool {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ES256Signature.maximumDERByteCount) {
      derBuffer in
      let derCount = signature.withContiguousBytes { jose in
        ES256Signature.convertJOSE(jose, toDER: derBuffer)
      }
      guard let derCount else { return false }
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: SHA256.digestByteCount) {
        digest in
        message.withContiguousBytes { SHA256.hash($0, into: digest.baseAddress) }
        let verdict = verificationContexts.withContext { context in
          EVP_PKEY_verify(context, derBuffer.baseAddress, derCount, digest.baseAddress, 32)
        }
        guard verdict == 1 else {
          // A mismatch leaves reasons on this thread's queue; they must not leak into the next
          // error reported on it.
          OpenSSLErrorQueue.clear()
          return false
        }
        return true
      }
    }
  }

  // MARK: - Identity

  /// A short, non-secret identification: the start of the SHA-256 of the key's DER.
  public var description: String {
    "P256PublicKey(sha256: \(SHA256.hexDigest(derRepresentation).prefix(16))…)"
  }

  /// Whether two keys are the same public key.
  ///
  /// - Parameters:
  ///   - lhs: A key.
  ///   - rhs: Another key.
  /// - Returns: `true` if their DER encodings are equal.
  public static func == (lhs: P256PublicKey, rhs: P256PublicKey) -> Bool {
    lhs.derRepresentation == rhs.derRepresentation
  }

  /// Hashes the key's DER encoding.
  ///
  /// - Parameter hasher: The hasher to feed.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(derRepresentation)
  }
}
