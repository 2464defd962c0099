/// Object identifiers of the extensions by which Apple marks the certificates that sign App Store
/// data; verifiers check their presence, and the simulator adds them to its own chain.
public enum AppleCertificateExtension {
  /// Carried by the leaf certificate that signs App Store Server API JWS data.
  public static let appStoreSigningLeaf = "1.2.840.113635.100.6.11.1"

  /// Carried by the Apple Worldwide Developer Relations intermediate certificate.
  public static let developerRelationsIntermediate = "1.2.840.113635.100.6.2.1"
}
