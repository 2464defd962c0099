/// How one account's classification moved since the previous run: its primary category and
/// its team-table category, each when it changed (a new finding, resolved, or another
/// category; a persisting finding is counted, not listed).
public struct AccountChange: Hashable, Sendable {
  /// The account.
  public var accountId: String
  /// The move of the primary (old logic against the App Store) category, if it changed.
  public var primary: CategoryChange?
  /// The move of the team table's category, if it changed.
  public var table: CategoryChange?

  /// Creates a change.
  public init(accountId: String, primary: CategoryChange?, table: CategoryChange?) {
    self.accountId = accountId
    self.primary = primary
    self.table = table
  }
}
