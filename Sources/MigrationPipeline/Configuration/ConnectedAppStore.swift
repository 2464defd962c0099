import AppStoreServerAPI
import MigrationReports

/// The App Store a run talks to: the client, how reports name it, and the identity a store
/// remembers so that it never mixes answers from two App Stores.
public struct ConnectedAppStore: Sendable {
  /// The client (Apple's API, or the simulator's loopback URLs).
  public var client: AppStoreServerAPIClient
  /// How reports name it, and whether it is simulated.
  public var source: AppStoreSource
  /// Which App Store's data this is: `apple <bundle id>`, or `simulator <world fingerprint>`.
  /// A store holds data of one identity only.
  public var identity: String

  /// Creates a connection description.
  ///
  /// - Parameters:
  ///   - client: the client.
  ///   - source: how reports name the App Store.
  ///   - identity: the identity stores remember.
  public init(client: AppStoreServerAPIClient, source: AppStoreSource, identity: String) {
    self.client = client
    self.source = source
    self.identity = identity
  }
}
