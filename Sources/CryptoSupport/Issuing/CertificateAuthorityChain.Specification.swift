extension CertificateAuthorityChain {
  /// The templates of a chain's three certificates.
  public struct Specification: Sendable, Hashable {
    /// The root's template.
    public var root: CertificateTemplate

    /// The intermediate's template.
    public var intermediate: CertificateTemplate

    /// The leaf's template.
    public var leaf: CertificateTemplate

    /// A specification from three templates.
    ///
    /// - Parameters:
    ///   - root: The root's template.
    ///   - intermediate: The intermediate's template.
    ///   - leaf: The leaf's template.
    public init(
      root: CertificateTemplate, intermediate: CertificateTemplate, leaf: CertificateTemplate
    ) {
      self.root = root
      self.intermediate = intermediate
      self.leaf = leaf
    }

    /// A chain shaped like Apple's App Store signing chain: a root CA, an intermediate CA with
    /// path length 0 carrying ``AppleCertificateExtension/developerRelationsIntermediate``, and a
    /// leaf carrying ``AppleCertificateExtension/appStoreSigningLeaf``, all valid over one period.
    ///
    /// - Parameters:
    ///   - notBefore: The start of validity of all three, in Unix milliseconds.
    ///   - notAfter: The end of validity of all three, in Unix milliseconds.
    ///   - organization: The `O` of every subject, to tell simulated chains from Apple's.
    /// - Returns: The specification.
    public static func appStoreLike(
      notBefore: Int64, notAfter: Int64, organization: String = "receipt-migrate simulator"
    ) -> Specification {
      Specification(
        root: .certificateAuthority(
          subject: DistinguishedName(
            commonName: "Simulated Root CA", organization: organization, country: "US"),
          notBefore: notBefore, notAfter: notAfter),
        intermediate: .certificateAuthority(
          subject: DistinguishedName(
            commonName: "Simulated Worldwide Developer Relations CA",
            organization: organization, country: "US"),
          notBefore: notBefore, notAfter: notAfter, pathLengthConstraint: 0,
          markerExtensionOIDs: [AppleCertificateExtension.developerRelationsIntermediate]),
        leaf: .leaf(
          subject: DistinguishedName(
            commonName: "Simulated App Store Signing", organization: organization,
            country: "US"),
          notBefore: notBefore, notAfter: notAfter,
          markerExtensionOIDs: [AppleCertificateExtension.appStoreSigningLeaf]))
    }
  }
}
