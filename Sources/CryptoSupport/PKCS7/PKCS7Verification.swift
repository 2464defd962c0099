/// The outcome of ``PKCS7SignedData/verify(_:using:at:)``.
public enum PKCS7Verification: Sendable, Equatable {
  /// The signature is valid and the signer chains to a trusted root at the instant.
  case valid(content: [UInt8], signer: X509Certificate)

  /// The envelope is rejected, for the given reason.
  case invalid(PKCS7Failure)

  /// The signed content, or `nil` if verification failed.
  public var content: [UInt8]? {
    if case .valid(let content, _) = self { return content }
    return nil
  }

  /// The reason the envelope was rejected, or `nil` if it verified.
  public var failure: PKCS7Failure? {
    if case .invalid(let failure) = self { return failure }
    return nil
  }
}
