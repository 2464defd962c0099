import AppStoreServerAPI
import CryptoSupport
import Foundation
import JSON

/// An App Store Connect API key made for the simulator: the private key a client signs request
/// tokens with, and the matching key the simulator accepts.
///
/// Tests make one in memory; `simulator serve` and the embedded default keep one next to the
/// world (`signing/api-key.p8` and `signing/api-key.json`) so that clients started separately
/// can use it.
public struct SimulatorTestKey: Sendable {
  /// The issuer id of generated keys.
  public static let defaultIssuerId = "3c5b1f0e-6a2d-4e8b-9f71-0d4c2b8a6e13"
  /// The key id of generated keys (ten characters, like App Store Connect's).
  public static let defaultKeyId = "SIMKEY0001"
  /// The file holding the private key, PEM PKCS#8 like an App Store Connect `.p8`.
  public static let privateKeyFileName = "api-key.p8"
  /// The file naming the issuer id and key id: `{"issuer_id", "key_id", "private_key_file"}`.
  public static let descriptionFileName = "api-key.json"

  /// The private key clients sign request tokens with.
  public let privateKey: P256PrivateKey
  /// The issuer id (`iss`).
  public let issuerId: String
  /// The key id (`kid`).
  public let keyId: String
  /// The app's bundle id (`bid`).
  public let bundleId: String

  /// Wraps an existing key.
  ///
  /// - Parameters:
  ///   - privateKey: the private key.
  ///   - issuerId: the issuer id.
  ///   - keyId: the key id.
  ///   - bundleId: the app's bundle id.
  public init(privateKey: P256PrivateKey, issuerId: String, keyId: String, bundleId: String) {
    self.privateKey = privateKey
    self.issuerId = issuerId
    self.keyId = keyId
    self.bundleId = bundleId
  }

  /// A new key.
  ///
  /// - Parameters:
  ///   - bundleId: the app's bundle id, such as `World.bundleId`.
  ///   - issuerId: the issuer id.
  ///   - keyId: the key id.
  /// - Returns: the key.
  /// - Throws: `CryptoError` if OpenSSL cannot generate a key.
  public static func generate(
    bundleId: String, issuerId: String = defaultIssuerId, keyId: String = defaultKeyId
  ) throws(CryptoError) -> SimulatorTestKey {
    SimulatorTestKey(
      privateKey: try P256PrivateKey.generate(), issuerId: issuerId, keyId: keyId,
      bundleId: bundleId)
  }

  /// The key the simulator accepts.
  public var apiKey: SimulatorAPIKey {
    SimulatorAPIKey(issuerId: issuerId, keyId: keyId, publicKey: privateKey.publicKey)
  }

  /// The credentials a client signs with.
  public var credentials: APICredentials {
    APICredentials(issuerId: issuerId, keyId: keyId, privateKey: privateKey, bundleId: bundleId)
  }

  // MARK: - Files

  /// Writes `api-key.p8` (mode 0600) and `api-key.json` into `directory`.
  ///
  /// - Parameter directory: an existing directory.
  /// - Throws: `SimulatorSetupError` naming the file that could not be written.
  public func write(toDirectory directory: String) throws(SimulatorSetupError) {
    let keyPath = "\(directory)/\(Self.privateKeyFileName)"
    let pem: String
    do {
      pem = try privateKey.pemRepresentation
    } catch {
      throw SimulatorSetupError("the simulator's API key cannot be encoded: \(error.message)")
    }
    try SimulatorSetupError.writing(Array(pem.utf8), to: keyPath, permissions: 0o600)
    var description = JSONWriter(style: .pretty)
    description.beginObject()
    description.field("issuer_id", issuerId)
    description.field("key_id", keyId)
    description.field("private_key_file", Self.privateKeyFileName)
    description.endObject()
    try SimulatorSetupError.writing(
      description.bytes + [UInt8(ascii: "\n")], to: "\(directory)/\(Self.descriptionFileName)",
      permissions: 0o644)
  }

  /// Reads the key `write(toDirectory:)` wrote.
  ///
  /// - Parameters:
  ///   - directory: the directory holding `api-key.json` and `api-key.p8`.
  ///   - bundleId: the app's bundle id.
  /// - Returns: the key.
  /// - Throws: `SimulatorSetupError` naming the file that is missing or unreadable.
  public static func load(fromDirectory directory: String, bundleId: String)
    throws(SimulatorSetupError) -> SimulatorTestKey
  {
    let descriptionPath = "\(directory)/\(descriptionFileName)"
    let bytes = try SimulatorSetupError.reading(descriptionPath)
    var issuerId: String?
    var keyId: String?
    var keyFile: String?
    do {
      if case .object(let members) = try JSONValue(parsing: bytes) {
        for member in members {
          guard case .string(let text) = member.value else { continue }
          switch member.key {
          case "issuer_id": issuerId = text
          case "key_id": keyId = text
          case "private_key_file": keyFile = text
          default: break
          }
        }
      }
    } catch {
      throw SimulatorSetupError(
        "\(descriptionPath) is not JSON (\(error)); delete it and \(privateKeyFileName) to make "
          + "a new key")
    }
    guard let issuerId, let keyId else {
      throw SimulatorSetupError(
        "\(descriptionPath) names no issuer_id or key_id; delete it and \(privateKeyFileName) "
          + "to make a new key")
    }
    let keyPath = "\(directory)/\(keyFile ?? privateKeyFileName)"
    do {
      return SimulatorTestKey(
        privateKey: try P256PrivateKey(contentsOfFile: keyPath), issuerId: issuerId,
        keyId: keyId, bundleId: bundleId)
    } catch {
      throw SimulatorSetupError("the simulator's API key cannot be read: \(error.message)")
    }
  }
}
