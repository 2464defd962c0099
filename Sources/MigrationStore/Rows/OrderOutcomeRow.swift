/// What Look Up Order ID answered for one order id.
public struct OrderOutcomeRow: Hashable, Sendable {
  /// The order id.
  public var orderId: String
  /// `valid`, `invalid` or `failed`.
  public var outcome: String
  /// The environment asked.
  public var environment: String?
  /// The transaction ids the order holds (for `valid`).
  public var transactionIds: [String]
  /// The last error, for `failed`.
  public var lastError: String?

  /// Creates an outcome.
  ///
  /// - Parameters:
  ///   - orderId: the order id.
  ///   - outcome: `valid`, `invalid` or `failed`.
  ///   - environment: the environment asked.
  ///   - transactionIds: the order's transaction ids.
  ///   - lastError: the error, for a failure.
  public init(
    orderId: String, outcome: String, environment: String?, transactionIds: [String],
    lastError: String?
  ) {
    self.orderId = orderId
    self.outcome = outcome
    self.environment = environment
    self.transactionIds = transactionIds
    self.lastError = lastError
  }
}
