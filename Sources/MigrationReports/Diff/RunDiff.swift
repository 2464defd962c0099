/// What differs between two runs' classifications, account by account: the read-only answer
/// of `receipt-migrate diff`.
public struct RunDiff: Hashable, Sendable {
  /// The earlier side.
  public var before: DiffSideFacts
  /// The later side.
  public var after: DiffSideFacts
  /// How the two sides' inputs differ, one sentence each.
  public var inputDifferences: [String]
  /// Moves of the primary category over the accounts both sides classified.
  public var primary: ChangeCounts
  /// Moves of the team table's category, when both sides compared a table.
  public var table: ChangeCounts?
  /// How many accounts each side classified.
  public var accountsBefore: Int
  /// How many accounts the later side classified.
  public var accountsAfter: Int
  /// Accounts only the earlier side classified, in account order.
  public var onlyBefore: [String]
  /// Accounts only the later side classified, in account order.
  public var onlyAfter: [String]
  /// The accounts whose primary or table category changed, in account order.
  public var changes: [AccountDiff]

  /// Creates a diff.
  public init(
    before: DiffSideFacts, after: DiffSideFacts, primary: ChangeCounts, table: ChangeCounts?,
    accountsBefore: Int, accountsAfter: Int, onlyBefore: [String], onlyAfter: [String],
    changes: [AccountDiff]
  ) {
    self.before = before
    self.after = after
    self.inputDifferences = before.differences(to: after)
    self.primary = primary
    self.table = table
    self.accountsBefore = accountsBefore
    self.accountsAfter = accountsAfter
    self.onlyBefore = onlyBefore
    self.onlyAfter = onlyAfter
    self.changes = changes
  }
}
