import AppStoreServerAPI
import AppStoreSimulator
import MigrationPipeline
import Terminal

/// A connected App Store: Apple's API, or the embedded simulator running in this process.
struct AppStoreConnection: Sendable {
  /// The client, how reports name the App Store, and its identity.
  let connected: ConnectedAppStore
  /// The embedded simulator, when no credentials are configured.
  let embedded: EmbeddedAppStore?
  /// The one environment configured, or `nil` for automatic.
  let environment: AppStoreEnvironment?

  /// Whether writes to the production environment reach Apple's own production server (not
  /// the embedded simulator, nor a server named by a base URL override).
  var writesReachApplesProduction: Bool {
    embedded == nil && connected.client.configuration.baseURLOverrides[.production] == nil
  }

  /// Says plainly, on standard error, when the App Store is simulated.
  ///
  /// - Parameter requested: whether the command line asked for the simulator (`--simulated`,
  ///   `--world`) rather than defaulting to it.
  func announce(requested: Bool = false) {
    guard let embedded else { return }
    StandardError.write(
      "receipt-migrate: using the SIMULATED App Store"
        + (requested
          ? ", as asked on the command line"
          : ". No App Store credentials are configured")
        + ", so every App Store answer comes from the built-in simulator seeded from "
        + "\(embedded.setup.worldDirectory) (world seed \(embedded.setup.world.seed), "
        + "\(embedded.setup.world.accounts.count) accounts). Set ASC_ISSUER_ID, ASC_KEY_ID, "
        + "ASC_PRIVATE_KEY_PATH (or ASC_PRIVATE_KEY), APP_BUNDLE_ID and "
        + "APP_STORE_ROOT_CERTIFICATES to talk to Apple.\n"
    )
  }

  /// Stops the embedded simulator, if any.
  func stop() {
    embedded?.stop()
  }
}
