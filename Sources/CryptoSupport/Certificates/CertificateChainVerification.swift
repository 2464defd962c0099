/// The outcome of ``CertificateChainVerifier/verify(leaf:intermediates:at:)``.
public enum CertificateChainVerification: Sendable, Equatable {
  /// The leaf chains to a trusted root and every certificate is valid at the instant.
  ///
  /// `chain` runs from the leaf to the trusted root.
  case valid(chain: [X509Certificate])

  /// The chain is rejected, for the given reason.
  case invalid(CertificateChainFailure)

  /// Whether the chain verified.
  public var isValid: Bool {
    if case .valid = self { return true }
    return false
  }

  /// The reason the chain was rejected, or `nil` if it verified.
  public var failure: CertificateChainFailure? {
    if case .invalid(let failure) = self { return failure }
    return nil
  }
}
