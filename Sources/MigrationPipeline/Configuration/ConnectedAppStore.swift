import AppStoreServerAPI
import Chronology
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
  /// The App Store's own clock, when it has one (a simulated world's): the instant comparisons
  /// of its data default to. `nil` for Apple, whose data is compared as of now.
  public var clock: Timestamp?

  /// Creates a connection description.
  ///
  /// - Parameters:
  ///   - client: the client.
  ///   - source: how reports name the App Store.
  ///   - identity: the identity stores remember.
  ///   - clock: the App Store's own clock, if it has one.
  public init(
    client: AppStoreServerAPIClient, source: AppStoreSource, identity: String,
    clock: Timestamp? = nil
  ) {
    self.client = client
    self.source = source
    self.identity = identity
    self.clock = clock
  }

  /// The identity of an App Store reached with credentials: `apple <bundle id>` when signed
  /// data must chain to Apple's root and no other; otherwise the other roots trusted are part
  /// of it (`apple <bundle id> root <fingerprint>`): a simulator served on loopback signs with
  /// its own world's root, so two served worlds are two App Stores, and a store built from one
  /// is never taken for the other's.
  ///
  /// - Parameter configuration: the client's configuration.
  /// - Returns: the identity a store records.
  public static func identity(of configuration: ClientConfiguration) -> String {
    let others = configuration.trustedRoots.map(\.sha256Fingerprint).filter {
      $0 != SignedDataVerifier.appleRootCAG3Fingerprint
    }.sorted()
    let base = "apple \(configuration.credentials.bundleId)"
    guard !others.isEmpty else { return base }
    return base + " root "
      + others.map { String($0.prefix(16)).lowercased() }.joined(separator: "+")
  }
}
