/// What an operation returned and the environment that answered it.
public struct EnvironmentResolution<Value: Sendable>: Sendable {
  /// The operation's result.
  public let value: Value
  /// The environment that answered.
  public let environment: AppStoreEnvironment

  /// A resolution from its parts.
  ///
  /// - Parameters:
  ///   - value: The result.
  ///   - environment: The environment that answered.
  public init(value: Value, environment: AppStoreEnvironment) {
    self.value = value
    self.environment = environment
  }
}
