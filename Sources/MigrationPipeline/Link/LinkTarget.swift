/// The App Store a `link` run writes to, as the journal records it.
public struct LinkTarget: Hashable, Sendable {
  /// How people read it: `simulated App Store (world …)`, `App Store Server API (Apple, …)`.
  public var description: String
  /// The identity the store's provenance records (``ConnectedAppStore/identity``).
  public var identity: String

  /// Creates a target.
  ///
  /// - Parameters:
  ///   - description: how people read it.
  ///   - identity: the provenance identity.
  public init(description: String, identity: String) {
    self.description = description
    self.identity = identity
  }

  /// The target of a connected App Store.
  ///
  /// - Parameter appStore: the connection.
  public init(_ appStore: ConnectedAppStore) {
    self.init(description: appStore.source.description, identity: appStore.identity)
  }
}
