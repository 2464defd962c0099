/// The app a notification says it is for: what ``SignedDataVerifier`` compares with its
/// configuration.
public struct NotificationApp: Sendable, Hashable {
  /// The bundle id.
  public var bundleId: String?

  /// The app's Apple id.
  public var appAppleId: Int64?

  /// The environment.
  public var environment: AppStoreEnvironment?

  /// An app from its members.
  ///
  /// - Parameters:
  ///   - bundleId: The bundle id.
  ///   - appAppleId: The app's Apple id.
  ///   - environment: The environment.
  public init(bundleId: String?, appAppleId: Int64?, environment: AppStoreEnvironment?) {
    self.bundleId = bundleId
    self.appAppleId = appAppleId
    self.environment = environment
  }
}
