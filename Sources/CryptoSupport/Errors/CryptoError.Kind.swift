extension CryptoError {
  /// The category of a ``CryptoError``.
  public enum Kind: Sendable, Hashable {
    /// A file could not be read or written (missing, unreadable, a directory, ...).
    case fileAccess
    /// The input was expected to be PEM text but holds no `-----BEGIN ...-----` block.
    case notPEM
    /// The input is PEM, but of another kind than expected (a certificate instead of a key, ...).
    case unexpectedPEMKind
    /// The key is not a P-256 elliptic-curve key (an RSA key, a P-384 key, ...).
    case unsupportedKey
    /// The private key is encrypted with a passphrase, which this toolkit does not take.
    case encryptedKey
    /// The bytes do not decode as the structure they claim to be (DER, PEM body, base64, ...).
    case malformedInput
    /// An argument is outside what the operation accepts (a wrong length, an empty list, ...).
    case invalidArgument
    /// OpenSSL failed in an operation that should not fail for valid input.
    case operationFailed
  }
}
