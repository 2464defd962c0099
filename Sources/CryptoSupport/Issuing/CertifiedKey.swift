/// A certificate together with the private key of its subject: what is needed to sign data that
/// others verify with the certificate, or to issue certificates when it is a CA.
public struct CertifiedKey: Sendable {
  /// The certificate.
  public let certificate: X509Certificate

  /// The private key matching the certificate's public key.
  public let privateKey: P256PrivateKey

  /// Pairs a certificate with its private key.
  ///
  /// - Parameters:
  ///   - certificate: The certificate.
  ///   - privateKey: The private key of the certificate's subject.
  /// - Throws: ``CryptoError`` of kind `.invalidArgument` if the key does not match the
  ///   certificate, or `.unsupportedKey` if the certificate's key is not on P-256.
  public init(certificate: X509Certificate, privateKey: P256PrivateKey) throws(CryptoError) {
    guard try certificate.publicKey() == privateKey.publicKey else {
      throw CryptoError(
        .invalidArgument,
        "the private key does not belong to the certificate \"\(certificate.subject)\"; pair "
          + "each certificate with the key it was issued for")
    }
    self.certificate = certificate
    self.privateKey = privateKey
  }

  private init(trusted certificate: X509Certificate, privateKey: P256PrivateKey) {
    self.certificate = certificate
    self.privateKey = privateKey
  }

  /// A self-signed certificate (a root) for `privateKey`, or for a new key.
  ///
  /// - Parameters:
  ///   - template: What the certificate says; normally ``CertificateTemplate/certificateAuthority(subject:notBefore:notAfter:pathLengthConstraint:markerExtensionOIDs:)``.
  ///   - privateKey: The subject's key, or `nil` to generate one.
  /// - Returns: The certificate and its key.
  /// - Throws: ``CryptoError`` if the template is invalid or OpenSSL fails.
  public static func selfSigned(
    _ template: CertificateTemplate, privateKey: P256PrivateKey? = nil
  ) throws(CryptoError) -> CertifiedKey {
    let key: P256PrivateKey
    if let privateKey { key = privateKey } else { key = try P256PrivateKey.generate() }
    let certificate = try CertificateBuilder.issue(
      template, subjectKey: key.key, issuer: nil, signingKey: key.key)
    return CertifiedKey(trusted: certificate, privateKey: key)
  }

  /// Issues a certificate signed by this one for `privateKey`, or for a new key.
  ///
  /// - Parameters:
  ///   - template: What the new certificate says.
  ///   - privateKey: The new subject's key, or `nil` to generate one.
  /// - Returns: The new certificate and its key.
  /// - Throws: ``CryptoError`` if the template is invalid or OpenSSL fails.
  public func issue(
    _ template: CertificateTemplate, privateKey: P256PrivateKey? = nil
  ) throws(CryptoError) -> CertifiedKey {
    let key: P256PrivateKey
    if let privateKey { key = privateKey } else { key = try P256PrivateKey.generate() }
    let certificate = try CertificateBuilder.issue(
      template, subjectKey: key.key, issuer: self.certificate, signingKey: self.privateKey.key)
    return CertifiedKey(trusted: certificate, privateKey: key)
  }

  /// Issues a certificate signed by this one for a public key whose private key is elsewhere.
  ///
  /// - Parameters:
  ///   - template: What the new certificate says.
  ///   - publicKey: The subject's public key.
  /// - Returns: The new certificate.
  /// - Throws: ``CryptoError`` if the template is invalid or OpenSSL fails.
  public func issueCertificate(
    _ template: CertificateTemplate, for publicKey: P256PublicKey
  ) throws(CryptoError) -> X509Certificate {
    try CertificateBuilder.issue(
      template, subjectKey: publicKey.key, issuer: certificate, signingKey: privateKey.key)
  }
}
