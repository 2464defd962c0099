/// Where a run's App Store data came from: Apple, or the built-in simulator.
public struct AppStoreSource: Hashable, Sendable {
  /// Whether the data came from the simulator; every report then says so prominently.
  public var isSimulated: Bool
  /// One line for people: "simulated App Store (world seed 1, 300 accounts)" or
  /// "App Store (production, api.storekit.apple.com)".
  public var description: String
  /// The environment setting the run used: `production`, `sandbox` or `auto`.
  public var environment: String

  /// Creates a description of the App Store used.
  ///
  /// - Parameters:
  ///   - isSimulated: whether the data came from the simulator.
  ///   - description: one line for people.
  ///   - environment: the environment setting: `production`, `sandbox` or `auto`.
  public init(isSimulated: Bool, description: String, environment: String) {
    self.isSimulated = isSimulated
    self.description = description
    self.environment = environment
  }
}
