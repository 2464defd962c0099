import Foundation

/// The App Store environment a request goes to or a signed payload comes from.
///
/// Payloads name their environment with the raw values `Production`, `Sandbox`, `Xcode` and
/// `LocalTesting`; any other value survives as ``unknown(_:)``.
public enum AppStoreEnvironment: OpenEnumeration {
  /// Real purchases, `https://api.storekit.apple.com`.
  case production
  /// Test purchases, `https://api.storekit-sandbox.apple.com`.
  case sandbox
  /// StoreKit testing in Xcode; never served by the App Store Server API.
  case xcode
  /// Local StoreKit testing; never served by the App Store Server API.
  case localTesting
  /// A value this version does not know, kept as sent.
  case unknown(String)

  /// The environment for a raw payload value.
  ///
  /// - Parameter rawValue: `Production`, `Sandbox`, `Xcode`, `LocalTesting` or another value.
  public init(rawValue: String) {
    switch rawValue {
    case "Production": self = .production
    case "Sandbox": self = .sandbox
    case "Xcode": self = .xcode
    case "LocalTesting": self = .localTesting
    default: self = .unknown(rawValue)
    }
  }

  /// The value as payloads spell it.
  public var rawValue: String {
    switch self {
    case .production: "Production"
    case .sandbox: "Sandbox"
    case .xcode: "Xcode"
    case .localTesting: "LocalTesting"
    case .unknown(let value): value
    }
  }

  /// The environment named on a command line or in a configuration file: `production` or
  /// `sandbox`, in any letter case.
  ///
  /// - Parameter name: The name as a person typed it.
  /// - Returns: The environment, or `nil` if the name is neither.
  public static func named(_ name: String) -> AppStoreEnvironment? {
    switch name.lowercased() {
    case "production": .production
    case "sandbox": .sandbox
    default: nil
    }
  }

  /// The environment a signed value may name, as `decode --environment` takes it: `production`,
  /// `sandbox`, `xcode` or `localtesting` (also `local-testing`), in any letter case — the
  /// environments Apple's libraries verify signed data of.
  ///
  /// - Parameter name: The name as a person typed it.
  /// - Returns: The environment, or `nil` if the name is none of them.
  public static func namedForSignedData(_ name: String) -> AppStoreEnvironment? {
    switch name.lowercased() {
    case "xcode": .xcode
    case "localtesting", "local-testing", "local_testing": .localTesting
    default: named(name)
    }
  }

  /// Whether signed values of this environment come from StoreKit testing (Xcode or local
  /// testing), signed by Xcode's own certificate rather than the App Store.
  public var isLocalTesting: Bool {
    switch self {
    case .xcode, .localTesting: true
    default: false
    }
  }

  /// Apple's base URL for the App Store Server API in this environment, or `nil` for
  /// environments Apple does not serve (Xcode, local testing, unknown).
  public var defaultBaseURL: URL? {
    switch self {
    case .production: URL(string: "https://api.storekit.apple.com")
    case .sandbox: URL(string: "https://api.storekit-sandbox.apple.com")
    case .xcode, .localTesting, .unknown: nil
    }
  }

  /// The environment to try when this one answers that a transaction id is unknown (4040010):
  /// sandbox after production and production after sandbox.
  public var fallback: AppStoreEnvironment? {
    switch self {
    case .production: .sandbox
    case .sandbox: .production
    case .xcode, .localTesting, .unknown: nil
    }
  }
}
