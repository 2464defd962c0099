/// A root, an intermediate and a leaf certificate with their keys, shaped like the chain Apple
/// signs App Store data with: for tests and the App Store simulator, never for trusting anything.
///
/// ```swift
/// let chain = try CertificateAuthorityChain.generate(
///   .appStoreLike(notBefore: start, notAfter: end))
/// let verifier = try CertificateChainVerifier(trustedRoots: [chain.root.certificate])
/// ```
///
/// Broken variants come from editing the specification before generating (remove the leaf's
/// marker, move its `notAfter` back, clear the intermediate's CA flag) or from generating a
/// second chain and trusting only the first one's root.
public struct CertificateAuthorityChain: Sendable {
  /// The self-signed root certificate authority.
  public let root: CertifiedKey

  /// The intermediate certificate authority, issued by ``root``.
  public let intermediate: CertifiedKey

  /// The leaf, issued by ``intermediate``, whose key signs data.
  public let leaf: CertifiedKey

  /// A chain from its three parts, checked to be linked by name.
  ///
  /// - Parameters:
  ///   - root: The root.
  ///   - intermediate: The intermediate, issued by the root.
  ///   - leaf: The leaf, issued by the intermediate.
  /// - Throws: ``CryptoError`` of kind `.invalidArgument` if an issuer name does not match.
  public init(root: CertifiedKey, intermediate: CertifiedKey, leaf: CertifiedKey)
    throws(CryptoError)
  {
    guard intermediate.certificate.issuer == root.certificate.subject,
      leaf.certificate.issuer == intermediate.certificate.subject
    else {
      throw CryptoError(
        .invalidArgument,
        "the certificates do not form a chain: the leaf is issued by \""
          + "\(leaf.certificate.issuer)\" and the intermediate by \""
          + "\(intermediate.certificate.issuer)\"")
    }
    self.root = root
    self.intermediate = intermediate
    self.leaf = leaf
  }

  private init(unchecked root: CertifiedKey, intermediate: CertifiedKey, leaf: CertifiedKey) {
    self.root = root
    self.intermediate = intermediate
    self.leaf = leaf
  }

  /// Generates a new chain with fresh keys.
  ///
  /// - Parameters:
  ///   - specification: What each certificate says.
  ///   - existingRoot: A root to issue the intermediate under instead of generating one (to make
  ///     several chains under one root).
  /// - Returns: The chain.
  /// - Throws: ``CryptoError`` if a template is invalid or OpenSSL fails.
  public static func generate(
    _ specification: Specification, under existingRoot: CertifiedKey? = nil
  ) throws(CryptoError) -> CertificateAuthorityChain {
    let root: CertifiedKey
    if let existingRoot {
      root = existingRoot
    } else {
      root = try CertifiedKey.selfSigned(specification.root)
    }
    let intermediate = try root.issue(specification.intermediate)
    let leaf = try intermediate.issue(specification.leaf)
    return CertificateAuthorityChain(unchecked: root, intermediate: intermediate, leaf: leaf)
  }

  /// The chain as a JWS header's `x5c`: standard base64 DER of leaf, intermediate and root.
  public var x5c: [String] {
    [leaf, intermediate, root].map(\.certificate.base64Encoded)
  }

  // MARK: - Files

  /// The files a chain is written to and read from, inside one directory.
  public static let fileNames = (
    rootCertificate: "root.pem", rootKey: "root-key.pem",
    intermediateCertificate: "intermediate.pem", intermediateKey: "intermediate-key.pem",
    leafCertificate: "leaf.pem", leafKey: "leaf-key.pem"
  )

  /// Writes the three certificates (PEM, mode 0644) and keys (PEM PKCS#8, mode 0600) to
  /// `directory`, replacing files of the same names (see ``fileNames``).
  ///
  /// Clients configure `root.pem` as their trusted root.
  ///
  /// - Parameter directory: An existing directory.
  /// - Throws: ``CryptoError`` of kind `.fileAccess` naming the file that could not be written.
  public func write(toDirectory directory: String) throws(CryptoError) {
    let names = Self.fileNames
    let parts = [
      (root, names.rootCertificate, names.rootKey, "root"),
      (intermediate, names.intermediateCertificate, names.intermediateKey, "intermediate"),
      (leaf, names.leafCertificate, names.leafKey, "leaf"),
    ]
    for (part, certificateName, keyName, role) in parts {
      try FileAccess.write(
        Array(part.certificate.pemRepresentation.utf8), to: "\(directory)/\(certificateName)",
        permissions: 0o644, role: "the \(role) certificate")
      try FileAccess.write(
        Array(part.privateKey.pemRepresentation.utf8), to: "\(directory)/\(keyName)",
        permissions: 0o600, role: "the \(role) private key")
    }
  }

  /// Reads a chain written by ``write(toDirectory:)``.
  ///
  /// - Parameter directory: The directory holding the files named in ``fileNames``.
  /// - Returns: The chain.
  /// - Throws: ``CryptoError`` naming the file that is missing or damaged, or if a key does not
  ///   match its certificate or the certificates do not form a chain.
  public static func load(fromDirectory directory: String) throws(CryptoError)
    -> CertificateAuthorityChain
  {
    func part(_ certificateName: String, _ keyName: String) throws(CryptoError) -> CertifiedKey {
      let path = "\(directory)/\(certificateName)"
      let certificates = try X509Certificate.certificates(contentsOfFile: path)
      guard certificates.count == 1, let certificate = certificates.first else {
        throw CryptoError(
          .invalidArgument, "\(path) holds \(certificates.count) certificates where one belongs")
      }
      let key = try P256PrivateKey(contentsOfFile: "\(directory)/\(keyName)")
      return try CertifiedKey(certificate: certificate, privateKey: key)
    }
    let names = fileNames
    return try CertificateAuthorityChain(
      root: part(names.rootCertificate, names.rootKey),
      intermediate: part(names.intermediateCertificate, names.intermediateKey),
      leaf: part(names.leafCertificate, names.leafKey))
  }
}
