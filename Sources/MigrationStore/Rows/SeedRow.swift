/// An original transaction id taken from a legacy record, to backfill the account from.
public struct SeedRow: Hashable, Sendable {
  /// The id.
  public var originalTransactionId: String
  /// Where in the record it was found: `latest_receipt_info`, `in_app`,
  /// `pending_renewal_info`, `csv`, `raw_receipt`.
  public var source: String
  /// The environment hint.
  public var environment: String?

  /// Creates a seed.
  ///
  /// - Parameters:
  ///   - originalTransactionId: the id.
  ///   - source: where it was found.
  ///   - environment: the environment hint.
  public init(originalTransactionId: String, source: String, environment: String?) {
    self.originalTransactionId = originalTransactionId
    self.source = source
    self.environment = environment
  }
}
