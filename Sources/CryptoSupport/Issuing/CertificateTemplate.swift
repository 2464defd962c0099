/// What a certificate to be issued says: its subject, validity, constraints and extensions.
///
/// The static constructors give the sensible profile for a certificate authority or a leaf; every
/// property stays mutable so that tests can make deliberately broken variants (an intermediate
/// that is not a CA, an expired leaf, a leaf without its marker extension).
public struct CertificateTemplate: Sendable, Hashable {
  /// The subject name.
  public var subject: DistinguishedName

  /// The start of validity, in Unix milliseconds (stored to the second, rounded down).
  public var notBefore: Int64

  /// The end of validity, in Unix milliseconds (stored to the second, rounded down).
  public var notAfter: Int64

  /// Whether basic constraints mark the certificate as a certificate authority (`CA:TRUE`).
  public var isCertificateAuthority: Bool

  /// The path-length constraint of a certificate authority, or `nil` for none.
  public var pathLengthConstraint: Int?

  /// The key usages, written as a critical extension.
  public var keyUsage: KeyUsage

  /// Dotted object identifiers of extensions to add as non-critical with an ASN.1 NULL value,
  /// the way Apple marks its App Store certificates (see ``AppleCertificateExtension``).
  public var markerExtensionOIDs: [String]

  /// The serial number as big-endian bytes, or `nil` for 16 random bytes.
  public var serialNumber: [UInt8]?

  /// A template with every field given.
  ///
  /// - Parameters:
  ///   - subject: The subject name.
  ///   - notBefore: The start of validity, in Unix milliseconds.
  ///   - notAfter: The end of validity, in Unix milliseconds.
  ///   - isCertificateAuthority: Whether the certificate is a CA.
  ///   - pathLengthConstraint: A CA's path-length constraint, or `nil`.
  ///   - keyUsage: The key usages.
  ///   - markerExtensionOIDs: Object identifiers of NULL-valued marker extensions.
  ///   - serialNumber: The serial number, or `nil` for a random one.
  public init(
    subject: DistinguishedName, notBefore: Int64, notAfter: Int64, isCertificateAuthority: Bool,
    pathLengthConstraint: Int? = nil, keyUsage: KeyUsage, markerExtensionOIDs: [String] = [],
    serialNumber: [UInt8]? = nil
  ) {
    self.subject = subject
    self.notBefore = notBefore
    self.notAfter = notAfter
    self.isCertificateAuthority = isCertificateAuthority
    self.pathLengthConstraint = pathLengthConstraint
    self.keyUsage = keyUsage
    self.markerExtensionOIDs = markerExtensionOIDs
    self.serialNumber = serialNumber
  }

  /// The profile of a certificate authority (root or intermediate): `CA:TRUE`, may sign
  /// certificates and revocation lists.
  ///
  /// - Parameters:
  ///   - subject: The subject name.
  ///   - notBefore: The start of validity, in Unix milliseconds.
  ///   - notAfter: The end of validity, in Unix milliseconds.
  ///   - pathLengthConstraint: How many intermediate CAs may follow, or `nil` for no limit.
  ///   - markerExtensionOIDs: Object identifiers of NULL-valued marker extensions.
  /// - Returns: The template.
  public static func certificateAuthority(
    subject: DistinguishedName, notBefore: Int64, notAfter: Int64,
    pathLengthConstraint: Int? = nil, markerExtensionOIDs: [String] = []
  ) -> CertificateTemplate {
    CertificateTemplate(
      subject: subject, notBefore: notBefore, notAfter: notAfter, isCertificateAuthority: true,
      pathLengthConstraint: pathLengthConstraint, keyUsage: [.keyCertSign, .cRLSign],
      markerExtensionOIDs: markerExtensionOIDs)
  }

  /// The profile of a leaf (end-entity) certificate: `CA:FALSE`, digital signatures only.
  ///
  /// - Parameters:
  ///   - subject: The subject name.
  ///   - notBefore: The start of validity, in Unix milliseconds.
  ///   - notAfter: The end of validity, in Unix milliseconds.
  ///   - markerExtensionOIDs: Object identifiers of NULL-valued marker extensions.
  /// - Returns: The template.
  public static func leaf(
    subject: DistinguishedName, notBefore: Int64, notAfter: Int64,
    markerExtensionOIDs: [String] = []
  ) -> CertificateTemplate {
    CertificateTemplate(
      subject: subject, notBefore: notBefore, notAfter: notAfter, isCertificateAuthority: false,
      keyUsage: [.digitalSignature], markerExtensionOIDs: markerExtensionOIDs)
  }
}
