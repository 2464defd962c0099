import CryptoSupport

/// Signs payloads as compact JWS the way the App Store does: ES256, with the certificate chain in
/// the header's `x5c`. The simulator signs its answers with it, and tests make signed data.
///
/// The header segment is encoded once; each signature costs one ES256 operation.
public struct JWSSigner: Sendable {
  private let privateKey: P256PrivateKey
  private let headerSegment: String

  /// The header every JWS of this signer carries.
  public let header: JWSHeader

  /// A signer with the leaf key of `chain` and its three certificates as `x5c`.
  ///
  /// - Parameter chain: A root → intermediate → leaf chain, such as the simulator's.
  public init(chain: CertificateAuthorityChain) {
    self.init(
      privateKey: chain.leaf.privateKey,
      header: JWSHeader(algorithm: "ES256", x5c: chain.x5c))
  }

  /// A signer with any header, including deliberately wrong ones (another `alg`, two
  /// certificates) for tests of verification failures.
  ///
  /// - Parameters:
  ///   - privateKey: The key that signs.
  ///   - header: The header to put on every JWS.
  public init(privateKey: P256PrivateKey, header: JWSHeader) {
    self.privateKey = privateKey
    self.header = header
    headerSegment = Base64URL.encode(header.jsonBytes())
  }

  /// The compact JWS of `payload` (already serialized JSON).
  ///
  /// - Parameter payload: The payload bytes.
  /// - Returns: `header.payload.signature`, each part base64url.
  /// - Throws: ``CryptoSupport/CryptoError`` if OpenSSL cannot sign.
  public func sign(payload: some Sequence<UInt8>) throws(CryptoError) -> String {
    let signingInput = headerSegment + "." + Base64URL.encode(payload)
    let signature = try privateKey.signature(for: signingInput.utf8)
    return signingInput + "." + Base64URL.encode(signature)
  }

  /// The compact JWS of a payload model, serialized compactly.
  ///
  /// - Parameter payload: The payload.
  /// - Returns: The compact JWS.
  /// - Throws: ``CryptoSupport/CryptoError`` if OpenSSL cannot sign.
  public func sign(_ payload: some JSONRepresentable) throws(CryptoError) -> String {
    try sign(payload: payload.jsonBytes())
  }
}
