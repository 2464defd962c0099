/// How one account's classification differs between the two sides of a diff.
public struct AccountDiff: Hashable, Sendable {
  /// The account.
  public var accountId: String
  /// The move of the primary category (old logic against the App Store), when it changed.
  public var primary: CategoryChange?
  /// The move of the team table's category, when both sides compared a table and it changed.
  public var table: CategoryChange?
  /// The evidence lines only the earlier side gave.
  public var evidenceRemoved: [String]
  /// The evidence lines only the later side gives.
  public var evidenceAdded: [String]

  /// Creates an account's difference.
  public init(
    accountId: String, primary: CategoryChange?, table: CategoryChange?,
    evidenceRemoved: [String], evidenceAdded: [String]
  ) {
    self.accountId = accountId
    self.primary = primary
    self.table = table
    self.evidenceRemoved = evidenceRemoved
    self.evidenceAdded = evidenceAdded
  }

  /// An explanation's evidence lines: its clauses, which the comparator joins with "; ".
  ///
  /// - Parameter explanation: an account's explanation.
  public static func evidenceLines(_ explanation: String) -> [String] {
    explanation.split(separator: "; ", omittingEmptySubsequences: true).map(String.init)
  }
}
