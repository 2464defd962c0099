/// One account of a run with its categories, beside its categories in an earlier run.
public struct CategoryPairRow: Hashable, Sendable {
  /// The account.
  public var accountId: String
  /// Its primary category in the run.
  public var category: String
  /// Its team-table category in the run, if a table was compared.
  public var tableCategory: String?
  /// Its primary category in the earlier run, or `nil` when that run did not classify it.
  public var earlierCategory: String?
  /// Its team-table category in the earlier run, if any.
  public var earlierTableCategory: String?

  /// Creates a row.
  public init(
    accountId: String, category: String, tableCategory: String?, earlierCategory: String?,
    earlierTableCategory: String?
  ) {
    self.accountId = accountId
    self.category = category
    self.tableCategory = tableCategory
    self.earlierCategory = earlierCategory
    self.earlierTableCategory = earlierTableCategory
  }
}
