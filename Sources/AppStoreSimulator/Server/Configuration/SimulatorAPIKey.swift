import CryptoSupport

/// The App Store Connect API key the simulator accepts request tokens from: the public half of
/// an in-app purchase key, with the key id and issuer id that tokens must name.
public struct SimulatorAPIKey: Sendable {
  /// The issuer id (`iss` claim) tokens must carry.
  public var issuerId: String
  /// The key id (`kid` header) tokens must carry.
  public var keyId: String
  /// The key whose signature tokens must carry.
  public var publicKey: P256PublicKey

  /// Creates an accepted key.
  ///
  /// - Parameters:
  ///   - issuerId: the issuer id tokens must carry.
  ///   - keyId: the key id tokens must carry.
  ///   - publicKey: the key tokens must be signed with.
  public init(issuerId: String, keyId: String, publicKey: P256PublicKey) {
    self.issuerId = issuerId
    self.keyId = keyId
    self.publicKey = publicKey
  }
}
