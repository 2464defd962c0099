/// What became of one seed id.
public struct SeedOutcomeRow: Hashable, Sendable {
  /// The id.
  public var originalTransactionId: String
  /// `found`, `covered`, `unknown`, `invalid` or `failed`.
  public var outcome: String
  /// The environment that answered.
  public var environment: String?
  /// The customer it led to.
  public var customerId: Int64?
  /// The last error, for failures.
  public var lastError: String?

  /// Creates an outcome.
  public init(
    originalTransactionId: String, outcome: String, environment: String?, customerId: Int64?,
    lastError: String?
  ) {
    self.originalTransactionId = originalTransactionId
    self.outcome = outcome
    self.environment = environment
    self.customerId = customerId
    self.lastError = lastError
  }
}
