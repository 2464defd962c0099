/// One account's place in a report's listing: rows sort by `rank`, then by `shownId` byte by
/// byte, then by `accountId`.
public struct DisplayOrderRow: Hashable, Sendable {
  /// Its category's place in the listing (smaller first).
  public var rank: Int
  /// The id the report shows: the account id, or its pseudonym in a redacted report.
  public var shownId: String
  /// The account.
  public var accountId: String

  /// Creates a row.
  public init(rank: Int, shownId: String, accountId: String) {
    self.rank = rank
    self.shownId = shownId
    self.accountId = accountId
  }
}
