extension CertificateTemplate {
  /// The key-usage bits a template can set (RFC 5280 §4.2.1.3).
  public struct KeyUsage: OptionSet, Sendable, Hashable {
    /// The bits, in this type's own numbering.
    public let rawValue: UInt8

    /// A set from raw bits.
    ///
    /// - Parameter rawValue: The bits.
    public init(rawValue: UInt8) {
      self.rawValue = rawValue
    }

    /// The key verifies digital signatures (a leaf that signs data).
    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)

    /// The key verifies signatures on certificates (a certificate authority).
    public static let keyCertSign = KeyUsage(rawValue: 1 << 1)

    /// The key verifies signatures on revocation lists.
    public static let cRLSign = KeyUsage(rawValue: 1 << 2)

    /// OpenSSL's configuration text for these bits, such as `keyCertSign,cRLSign`.
    var configurationValue: String {
      var names: [String] = []
      if contains(.digitalSignature) { names.append("digitalSignature") }
      if contains(.keyCertSign) { names.append("keyCertSign") }
      if contains(.cRLSign) { names.append("cRLSign") }
      return names.joined(separator: ",")
    }
  }
}
