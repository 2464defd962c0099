import Chronology
import Entitlements
import LegacyReceipts

/// What the comparison compares, and how.
public struct CompareOptions: Sendable {
  /// The comparison instant.
  public var asOf: Timestamp
  /// The team's product catalogue.
  public var catalog: ProductCatalog?
  /// The team's table by account, when one is compared from memory.
  public var table: [AccountKey: [TableRow]]?
  /// The run whose stored team table is compared, read one account at a time so that a
  /// million-row table is never held whole; `table` wins when both are set.
  public var storedTableRunId: String?
  /// How far apart two expiries may be and still agree.
  public var expiryTolerance: Int64
  /// The team's `appAccountToken` for each account, when tokens are audited.
  public var tokens: AccountTokenMapping?
  /// How long after the instant its data holds through a customer's data may still be read
  /// (`--max-data-age`); `nil` for no bound.
  public var maxDataAgeMilliseconds: Int64?
  /// Per environment, the instant its App Store data is current through (the refresh's
  /// watermark: the feed was read to there, vouched for it, and nothing is left due).
  public var watermarks: [String: Timestamp] = [:]

  /// Creates options.
  public init(
    asOf: Timestamp, catalog: ProductCatalog? = nil, table: [AccountKey: [TableRow]]? = nil,
    storedTableRunId: String? = nil, expiryTolerance: Int64 = Timestamp.millisecondsPerDay,
    tokens: AccountTokenMapping? = nil, maxDataAgeMilliseconds: Int64? = nil
  ) {
    self.asOf = asOf
    self.catalog = catalog
    self.table = table
    self.storedTableRunId = storedTableRunId
    self.expiryTolerance = expiryTolerance
    self.tokens = tokens
    self.maxDataAgeMilliseconds = maxDataAgeMilliseconds
  }
}
