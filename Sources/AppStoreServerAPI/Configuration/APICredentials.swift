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

  /// Credentials with the key given as its PEM text, as Apple's own libraries take it and as
  /// secret stores and containers hand it over (`ASC_PRIVATE_KEY`).
  ///
  /// The text is never part of an error: a message names the variable and what the text holds
  /// instead of a key, not the text itself.
  ///
  /// - Parameters:
  ///   - issuerId: The issuer id.
  ///   - keyId: The key id.
  ///   - privateKeyPEM: The contents of the `AuthKey_<key id>.p8` file. A one-line value whose
  ///     line breaks were written as `\n` (as some secret stores and `.env` files keep them)
  ///     is accepted too.
  ///   - bundleId: The app's bundle id.
  /// - Throws: ``ConfigurationError`` naming `ASC_PRIVATE_KEY`, what it holds instead of a
  ///   PKCS#8 P-256 key, and where to download the right one.
  public init(issuerId: String, keyId: String, privateKeyPEM: String, bundleId: String)
    throws(ConfigurationError)
  {
    // A PEM block needs its line breaks; a value escaped onto one line is restored rather than
    // refused, since that is how many secret stores keep a multi-line value.
    let text =
      privateKeyPEM.contains(#"\n"#) && !privateKeyPEM.contains("\n")
      ? privateKeyPEM.replacingOccurrences(of: #"\n"#, with: "\n")
      : privateKeyPEM
    let key: P256PrivateKey
    do {
      key = try P256PrivateKey(pemRepresentation: text)
    } catch {
      throw ConfigurationError(
        "\(Variable.privateKey): cannot use the App Store Connect key it holds: "
          + "\(error.message)")
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
    /// The key's PEM text itself, instead of ``privateKeyPath``; never echoed or written.
    public static let privateKey = "ASC_PRIVATE_KEY"
    /// The app's bundle id.
    public static let bundleId = "APP_BUNDLE_ID"
    /// The app's Apple id (a number), needed to verify app transactions and notifications.
    public static let appAppleId = "APP_APPLE_ID"
  }

  /// Credentials from `ASC_ISSUER_ID`, `ASC_KEY_ID`, `APP_BUNDLE_ID`, and the key from either
  /// `ASC_PRIVATE_KEY_PATH` (a `.p8` file) or `ASC_PRIVATE_KEY` (its PEM text).
  ///
  /// - Parameter environment: The process environment (or a test's dictionary).
  /// - Throws: ``ConfigurationError`` listing every missing variable, naming both key variables
  ///   when both are set, or the key's problem.
  public init(environment: [String: String]) throws(ConfigurationError) {
    func value(_ name: String) -> String? {
      environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
    let path = value(Variable.privateKeyPath)
    let text = value(Variable.privateKey)
    // Two keys would leave the tool choosing one silently, and an operator who rotated one of
    // them would not know which key signs the requests.
    if path != nil && text != nil {
      throw ConfigurationError(
        "both \(Variable.privateKeyPath) and \(Variable.privateKey) are set: give the App Store "
          + "Connect key one way, the .p8 file's path or its contents, and unset the other")
    }
    var missing = [Variable.issuerId, Variable.keyId].filter { value($0) == nil }
    if path == nil && text == nil {
      missing.append("\(Variable.privateKeyPath) (or \(Variable.privateKey))")
    }
    if value(Variable.bundleId) == nil { missing.append(Variable.bundleId) }
    guard missing.isEmpty, let issuerId = value(Variable.issuerId),
      let keyId = value(Variable.keyId), let bundleId = value(Variable.bundleId)
    else {
      throw ConfigurationError(
        "App Store Server API credentials are incomplete: set \(missing.joined(separator: ", ")) "
          + "(the issuer id and key id are shown in App Store Connect > Users and Access > "
          + "Integrations > In-App Purchase, where the .p8 key is downloaded)")
    }
    if let text {
      try self.init(issuerId: issuerId, keyId: keyId, privateKeyPEM: text, bundleId: bundleId)
    } else {
      try self.init(
        issuerId: issuerId, keyId: keyId, privateKeyPath: path ?? "", bundleId: bundleId)
    }
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
