import COpenSSL

/// An incremental SHA-256 computation for input that arrives in pieces (large files, streams).
///
/// Not thread-safe: one hasher belongs to one task at a time, which is why it is not `Sendable`.
public final class SHA256Hasher {
  private let context: OpaquePointer
  private var isFinished = false

  /// Starts a new computation.
  ///
  /// - Throws: ``CryptoError`` if OpenSSL cannot allocate or initialize a digest context.
  public init() throws(CryptoError) {
    guard let context = EVP_MD_CTX_new() else {
      throw CryptoError(.operationFailed, "OpenSSL could not allocate a SHA-256 context")
    }
    self.context = context
    guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
      throw CryptoError(.operationFailed, "OpenSSL could not start a SHA-256 computation")
    }
  }

  deinit {
    EVP_MD_CTX_free(context)
  }

  /// Adds `bytes` to the input.
  ///
  /// - Parameter bytes: The next piece of input.
  /// - Throws: ``CryptoError`` if the hasher was already finalized or OpenSSL fails.
  public func update(_ bytes: some Sequence<UInt8>) throws(CryptoError) {
    guard !isFinished else {
      throw CryptoError(
        .invalidArgument, "this SHA-256 hasher was already finalized; create a new one")
    }
    let succeeded = bytes.withContiguousBytes { input in
      input.count == 0 || EVP_DigestUpdate(context, input.baseAddress, input.count) == 1
    }
    guard succeeded else {
      throw CryptoError(
        .operationFailed, "OpenSSL failed to hash \(bytes.underestimatedCount) bytes")
    }
  }

  /// Ends the computation and returns the digest; the hasher cannot be used afterwards.
  ///
  /// - Returns: The 32-byte digest of everything passed to ``update(_:)``.
  /// - Throws: ``CryptoError`` if the hasher was already finalized or OpenSSL fails.
  public func finalize() throws(CryptoError) -> [UInt8] {
    guard !isFinished else {
      throw CryptoError(
        .invalidArgument, "this SHA-256 hasher was already finalized; create a new one")
    }
    isFinished = true
    var digest = [UInt8](repeating: 0, count: SHA256.digestByteCount)
    var length: UInt32 = 0
    guard EVP_DigestFinal_ex(context, &digest, &length) == 1, Int(length) == digest.count else {
      throw CryptoError(.operationFailed, "OpenSSL failed to finish a SHA-256 computation")
    }
    return digest
  }
}
