import Chronology
import Entitlements
import MigrationReports
import MigrationStore

/// How a run's classification differs from an earlier run of the same store: per account, a
/// new finding, resolved, persisting, or another category — for the primary category and for
/// the team table's — counted, and listed for the accounts whose category changed.
public struct RunDifference: Sendable {
  /// The counts.
  public var counts: RunChangeCounts
  /// The accounts whose primary or table category changed, by account id.
  public var changes: [AccountChange]
  /// Every account's categories in the earlier run, for `--fail-on new:…`.
  public var previous: [String: FailOnPolicy.Previous]

  /// Compares a run's categories with an earlier run's.
  ///
  /// - Parameters:
  ///   - current: this run's categories, by account.
  ///   - comparesTable: whether this run compared a team table.
  ///   - earlier: the earlier run.
  ///   - earlierCategories: its categories, by account.
  ///   - earlierComparedTable: whether it compared a team table.
  /// - Returns: the difference.
  public static func between(
    current: [(accountId: String, category: String, tableCategory: String?)],
    comparesTable: Bool, earlier: RunRow,
    earlierCategories: [String: (category: String, tableCategory: String?)],
    earlierComparedTable: Bool
  ) -> RunDifference {
    let bothTables = comparesTable && earlierComparedTable
    var primary: [ChangeKind: Int] = [:]
    var table: [ChangeKind: Int] = [:]
    var changes: [AccountChange] = []
    var newAccounts = 0
    for account in current.sorted(by: { $0.accountId < $1.accountId }) {
      let before = earlierCategories[account.accountId]
      if before == nil { newAccounts += 1 }
      var change = AccountChange(accountId: account.accountId, primary: nil, table: nil)
      if let kind = ChangeKind.of(from: before?.category, to: account.category) {
        primary[kind, default: 0] += 1
        if kind != .persisting {
          change.primary = CategoryChange(from: before?.category, to: account.category, kind: kind)
        }
      }
      if bothTables, let now = account.tableCategory,
        let kind = ChangeKind.of(from: before?.tableCategory, to: now)
      {
        table[kind, default: 0] += 1
        if kind != .persisting {
          change.table = CategoryChange(from: before?.tableCategory, to: now, kind: kind)
        }
      }
      if change.primary != nil || change.table != nil { changes.append(change) }
    }
    var previous: [String: FailOnPolicy.Previous] = [:]
    for (account, categories) in earlierCategories {
      previous[account] = FailOnPolicy.Previous(
        category: DiscrepancyCategory(rawValue: categories.category),
        tableCategory: categories.tableCategory.flatMap(DiscrepancyCategory.init(rawValue:)))
    }
    return RunDifference(
      counts: RunChangeCounts(
        previousRunId: earlier.id,
        previousAsOf: Timestamp(millisecondsSince1970: earlier.asOfMilliseconds),
        primary: ChangeCounts(byKind: primary),
        table: bothTables ? ChangeCounts(byKind: table) : nil, newAccounts: newAccounts),
      changes: changes, previous: previous)
  }

  /// The difference between a recorded run and the run it is compared with: `since`, or the
  /// previous finished run of the store.
  ///
  /// - Parameters:
  ///   - run: the run.
  ///   - since: the run to compare with, or `nil` for the previous finished one.
  ///   - store: the store.
  /// - Returns: the difference, or `nil` when there is no earlier run.
  /// - Throws: ``RunRecipe/Failure`` for an unknown `since`; `SQLiteError`.
  public static func of(run: RunRow, since: String?, store: MigrationStore) throws
    -> RunDifference?
  {
    let earlier: RunRow
    if let since {
      guard let named = try store.run(since), named.finishedMilliseconds != nil else {
        throw RunRecipe.Failure(
          description: "--since \(since): the database \(store.path) has no finished run "
            + "with that id")
      }
      earlier = named
    } else {
      guard
        let found = try store.previousFinishedRun(
          before: run.id, startedMilliseconds: run.startedMilliseconds)
      else { return nil }
      earlier = found
    }
    let current = try store.comparisonCategories(runId: run.id).map {
      (accountId: $0.key, category: $0.value.category, tableCategory: $0.value.tableCategory)
    }
    return between(
      current: current, comparesTable: try RunRecipe.read(run).teamTableFile != nil,
      earlier: earlier, earlierCategories: try store.comparisonCategories(runId: earlier.id),
      earlierComparedTable: try RunRecipe.read(earlier).teamTableFile != nil)
  }
}
