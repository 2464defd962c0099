import CryptoSupport

/// What identifies the caller to the App Store Server API: the App Store Connect issuer, the key
/// and its id, and the app's bundle id (the `bid` claim).
///
/// The private key never appears in `description`, `dump` or an error.
public struct APICredentials: Sendable, CustomStringConvertible, CustomReflectable {
  /// The issuer id from App Store Connect > Users and Access > Integrations (a UUID).
  public let issuerId: String

  /// The id of the key (the `kid` header), as in the key's file name `AuthKey_<key id>.p8`.
  public let keyId: String

  /// The App Store Connect in-app purchase key (P-256).
  public let privateKey: P256PrivateKey

  /// The app's bundle id.
  public let bundleId: String

  /// Credentials from their parts.
  ///
  /// - Parameters:
  ///   - issuerId: The issuer id.
  ///   - keyId: The key id.
  ///   - privateKey: The private key.
  ///   - bundleId: The app's bundle id.
  public init(issuerId: String, keyId: String, privateKey: P256PrivateKey, bundleId: String) {
    self.issuerId = issuerId
    self.keyId = keyId
    self.privateKey = privateKey
    self.bundleId = bundleId
  }

  /// Credentials with the key loaded from a `.p8` file.
  ///
  /// - Parameters:
  ///   - issuerId: The issuer id.
  ///   - keyId: The key id.
  ///   - privateKeyPath: The path of the `AuthKey_<key id>.p8` file.
  ///   - bundleId: The app's bundle id.
  /// - Throws: ``ConfigurationError`` naming the file, what it holds instead of a PKCS#8 P-256
  ///   key, and where to download the right one.
  public init(issuerId: String, keyId: String, privateKeyPath: String, bundleId: String)
    throws(ConfigurationError)
  {
    let key: P256PrivateKey
    do {
      key = try P256PrivateKey(contentsOfFile: privateKeyPath)
    } catch {
      throw ConfigurationError(
        "ASC_PRIVATE_KEY_PATH: cannot use the App Store Connect key: \(error.message)")
    }
    self.init(issuerId: issuerId, keyId: keyId, privateKey: key, bundleId: bundleId)
  }

  /// The names of the environment variables ``init(environment:)`` reads.
  public enum Variable {
    /// The issuer id.
    public static let issuerId = "ASC_ISSUER_ID"
    /// The key id.
    public static let keyId = "ASC_KEY_ID"
    /// The path of the `.p8` key file.
    public static let privateKeyPath = "ASC_PRIVATE_KEY_PATH"
    /// The app's bundle id.
    public static let bundleId = "APP_BUNDLE_ID"
    /// The app's Apple id (a number), needed to verify app transactions and notifications.
    public static let appAppleId = "APP_APPLE_ID"
  }

  /// Credentials from `ASC_ISSUER_ID`, `ASC_KEY_ID`, `ASC_PRIVATE_KEY_PATH` and `APP_BUNDLE_ID`.
  ///
  /// - Parameter environment: The process environment (or a test's dictionary).
  /// - Throws: ``ConfigurationError`` listing every missing variable, or the key file's problem.
  public init(environment: [String: String]) throws(ConfigurationError) {
    let names = [Variable.issuerId, Variable.keyId, Variable.privateKeyPath, Variable.bundleId]
    let missing = names.filter { (environment[$0] ?? "").isEmpty }
    guard missing.isEmpty, let issuerId = environment[Variable.issuerId],
      let keyId = environment[Variable.keyId],
      let path = environment[Variable.privateKeyPath],
      let bundleId = environment[Variable.bundleId]
    else {
      throw ConfigurationError(
        "App Store Server API credentials are incomplete: set \(missing.joined(separator: ", ")) "
          + "(the issuer id and key id are shown in App Store Connect > Users and Access > "
          + "Integrations > In-App Purchase, where the .p8 key is downloaded)")
    }
    try self.init(issuerId: issuerId, keyId: keyId, privateKeyPath: path, bundleId: bundleId)
  }

  /// The issuer, key id and bundle id; the key itself is redacted.
  public var description: String {
    "APICredentials(issuerId: \(issuerId), keyId: \(keyId), bundleId: \(bundleId), "
      + "privateKey: <redacted>)"
  }

  /// A mirror that shows only ``description``'s fields, so that `dump` prints no key material.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: ["issuerId": issuerId, "keyId": keyId, "bundleId": bundleId],
      displayStyle: .struct)
  }
}
