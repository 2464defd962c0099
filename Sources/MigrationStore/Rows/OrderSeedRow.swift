/// An order id a legacy record names, as the backfill plans with it.
public struct OrderSeedRow: Hashable, Sendable {
  /// The account whose record names it.
  public var accountId: String
  /// The order id.
  public var orderId: String
  /// The record.
  public var recordId: Int64
  /// The environment the record names.
  public var environment: String?

  /// Creates a row.
  ///
  /// - Parameters:
  ///   - accountId: the account.
  ///   - orderId: the order id.
  ///   - recordId: the record.
  ///   - environment: the environment hint.
  public init(accountId: String, orderId: String, recordId: Int64, environment: String?) {
    self.accountId = accountId
    self.orderId = orderId
    self.recordId = recordId
    self.environment = environment
  }
}
