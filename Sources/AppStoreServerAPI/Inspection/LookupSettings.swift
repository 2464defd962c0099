import Chronology
import CryptoSupport
import Foundation

/// What `receipt-migrate lookup` needs, read from the environment: credentials, trust, the app's
/// Apple id, the environment choice and base URL overrides.
public struct LookupSettings: Sendable {
  /// The names of the environment variables beyond the credentials'.
  public enum Variable {
    /// `production`, `sandbox`, or `auto` (production, then sandbox on 4040010): the default.
    public static let environment = "APP_STORE_ENVIRONMENT"
    /// Trusted root certificate files (PEM or DER), separated by `:`.
    public static let rootCertificates = "APP_STORE_ROOT_CERTIFICATES"
    /// A base URL replacing Apple's production host (the simulator's, on loopback).
    public static let productionURL = "APP_STORE_PRODUCTION_URL"
    /// A base URL replacing Apple's sandbox host.
    public static let sandboxURL = "APP_STORE_SANDBOX_URL"
    /// The clock of a simulator served with `simulator serve` (ISO 8601 or Unix milliseconds):
    /// its answers describe that instant, not now. Only with a base URL override.
    public static let clock = "APP_STORE_CLOCK"
  }

  /// The client configuration.
  public var configuration: ClientConfiguration

  /// The environment to call, or `nil` for production first with sandbox fallback.
  public var environment: AppStoreEnvironment?

  /// The App Store's own clock when it is a simulator served at a fixed instant, or `nil` for
  /// Apple, whose clock is now.
  public var clock: Timestamp?

  /// Settings from their parts.
  ///
  /// - Parameters:
  ///   - configuration: The client configuration.
  ///   - environment: The environment, or `nil` for automatic.
  ///   - clock: The App Store's own clock, for a served simulator.
  public init(
    configuration: ClientConfiguration, environment: AppStoreEnvironment?, clock: Timestamp? = nil
  ) {
    self.configuration = configuration
    self.environment = environment
    self.clock = clock
  }

  /// Reads the settings from environment variables.
  ///
  /// - Parameter variables: The process environment.
  /// - Returns: The settings.
  /// - Throws: ``ConfigurationError`` naming each missing or invalid variable.
  public static func read(from variables: [String: String]) throws(ConfigurationError)
    -> LookupSettings
  {
    let credentials = try APICredentials(environment: variables)
    let rootPaths = (variables[Variable.rootCertificates] ?? "").split(separator: ":").map(
      String.init)
    guard !rootPaths.isEmpty else {
      throw ConfigurationError(
        "\(Variable.rootCertificates) is not set: name the trusted root certificate file(s), "
          + "AppleRootCA-G3.cer from apple.com/certificateauthority against Apple, or the "
          + "simulator's root.pem")
    }
    let roots = try SignedDataVerifier.loadTrustedRoots(paths: rootPaths)
    var appAppleId: Int64?
    if let text = variables[APICredentials.Variable.appAppleId], !text.isEmpty {
      guard let number = Int64(text) else {
        throw ConfigurationError(
          "\(APICredentials.Variable.appAppleId) is \"\(text)\", not a number; it is the Apple ID "
            + "shown in App Store Connect > App Information")
      }
      appAppleId = number
    }
    var environment: AppStoreEnvironment?
    let choice = variables[Variable.environment] ?? "auto"
    if choice.lowercased() != "auto" && !choice.isEmpty {
      guard let named = AppStoreEnvironment.named(choice) else {
        throw ConfigurationError(
          "\(Variable.environment) is \"\(choice)\"; use production, sandbox or auto")
      }
      environment = named
    }
    // Apple's own libraries refuse to verify production data without the app's Apple id: a
    // production app transaction or notification names the app by it, and without it every
    // one of them would fail verification, visible only in the run's failures.
    if appAppleId == nil && environment != .sandbox {
      throw ConfigurationError(
        "\(APICredentials.Variable.appAppleId) is not set, and production is "
          + (environment == .production
            ? "configured" : "asked first (\(Variable.environment) is auto)")
          + ": set it to the Apple ID shown in App Store Connect > App Information, or set "
          + "\(Variable.environment)=sandbox")
    }
    var overrides: [AppStoreEnvironment: URL] = [:]
    for (name, target) in [
      (Variable.productionURL, AppStoreEnvironment.production),
      (Variable.sandboxURL, .sandbox),
    ] {
      guard let text = variables[name], !text.isEmpty else { continue }
      guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
        throw ConfigurationError("\(name) is \"\(text)\", not an http(s) URL")
      }
      overrides[target] = url
    }
    var clock: Timestamp?
    if let text = variables[Variable.clock], !text.isEmpty {
      guard let instant = Timestamp(parsing: text) else {
        throw ConfigurationError(
          "\(Variable.clock) is \"\(text)\", not an instant; use ISO 8601 or Unix milliseconds")
      }
      guard !overrides.isEmpty else {
        throw ConfigurationError(
          "\(Variable.clock) is set but no base URL is overridden: Apple's clock is now; set it "
            + "only for a simulator served with receipt-migrate simulator serve")
      }
      clock = instant
    }
    return LookupSettings(
      configuration: ClientConfiguration(
        credentials: credentials, trustedRoots: roots, appAppleId: appAppleId,
        baseURLOverrides: overrides),
      environment: environment, clock: clock)
  }
}
