import AppStoreServerAPI

/// Which App Store a run talks to.
public enum AppStoreChoice: Sendable {
  /// Apple's App Store Server API, with the configured credentials.
  case apple(LookupSettings)
  /// No credentials are configured: the embedded simulator, seeded from the sample world.
  case embeddedSimulator
}
