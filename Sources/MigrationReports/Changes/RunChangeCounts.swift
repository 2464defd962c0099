import Chronology

/// What changed since an earlier run of the same store: which run, and how many accounts moved
/// in each way, for the primary category and the team table's.
public struct RunChangeCounts: Hashable, Sendable {
  /// The run compared with.
  public var previousRunId: String
  /// Its comparison instant.
  public var previousAsOf: Timestamp
  /// Moves of the primary category, or `nil` when the two runs' primary categories cannot be
  /// compared (their catalogues differ).
  public var primary: ChangeCounts?
  /// Moves of the team table's category, when both runs compared a table.
  public var table: ChangeCounts?
  /// Accounts the previous run did not have.
  public var newAccounts: Int
  /// How the two runs' inputs differ, one sentence each (empty when they are the same): what
  /// was therefore not compared.
  public var inputDifferences: [String]
  /// Accounts with a new finding on either side (primary or table), each counted once; `nil`
  /// for a summary stored before it was kept.
  public var accountsWithNewFindings: Int?

  /// Creates counts.
  ///
  /// - Parameters:
  ///   - previousRunId: the run compared with.
  ///   - previousAsOf: its comparison instant.
  ///   - primary: moves of the primary category, or `nil` when the runs' catalogues differ.
  ///   - table: moves of the table's category, when both runs compared a table.
  ///   - newAccounts: accounts the previous run did not have.
  ///   - inputDifferences: how the two runs' inputs differ.
  ///   - accountsWithNewFindings: accounts with a new finding on either side, when known.
  public init(
    previousRunId: String, previousAsOf: Timestamp, primary: ChangeCounts?, table: ChangeCounts?,
    newAccounts: Int, inputDifferences: [String] = [], accountsWithNewFindings: Int? = nil
  ) {
    self.previousRunId = previousRunId
    self.previousAsOf = previousAsOf
    self.primary = primary
    self.table = table
    self.newAccounts = newAccounts
    self.inputDifferences = inputDifferences
    self.accountsWithNewFindings = accountsWithNewFindings
  }
}
