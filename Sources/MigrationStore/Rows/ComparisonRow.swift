/// One account's classification in one run.
public struct ComparisonRow: Hashable, Sendable {
  /// The account.
  public var accountId: String
  /// The primary category.
  public var category: String
  /// The table category, when a table was compared.
  public var tableCategory: String?
  /// The cause of the primary difference.
  public var cause: String?
  /// The one-line explanation.
  public var explanation: String

  /// Creates a row.
  public init(
    accountId: String, category: String, tableCategory: String?, cause: String?, explanation: String
  ) {
    self.accountId = accountId
    self.category = category
    self.tableCategory = tableCategory
    self.cause = cause
    self.explanation = explanation
  }
}
