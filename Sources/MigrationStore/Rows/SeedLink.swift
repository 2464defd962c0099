/// A seed id as the backfill plans with it: which account and record it came from, and its
/// environment hint.
public struct SeedLink: Hashable, Sendable {
  /// The account.
  public var accountId: String
  /// The original transaction id.
  public var originalTransactionId: String
  /// The legacy record it was found in.
  public var recordId: Int64
  /// The environment the record names.
  public var environment: String?

  /// Creates a link.
  public init(
    accountId: String, originalTransactionId: String, recordId: Int64, environment: String?
  ) {
    self.accountId = accountId
    self.originalTransactionId = originalTransactionId
    self.recordId = recordId
    self.environment = environment
  }
}
