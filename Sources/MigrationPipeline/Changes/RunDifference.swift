import Chronology
import Entitlements
import MigrationReports
import MigrationStore

/// How a run's classification differs from an earlier run of the same store: per account, a
/// new finding, resolved, persisting, or another category — for the primary category and for
/// the team table's — counted, and listed for the accounts whose category changed. Accounts
/// only the earlier run classified are not counted: they are no longer in the store's input.
public struct RunDifference: Sendable {
  /// The counts.
  public var counts: RunChangeCounts
  /// The accounts whose primary or table category changed, by account id.
  public var changes: [AccountChange]
  /// The earlier run's categories of the accounts asked for (for `--fail-on new:…`); an
  /// account the earlier run did not classify is absent.
  public var previous: [AccountKey: FailOnPolicy.Previous]

  /// Counts a run's categories against an earlier run's, one account at a time, in account
  /// order: nothing is held but the counts, the accounts whose category changed, and the
  /// earlier categories of the accounts asked for.
  struct Accumulator {
    let comparesBothTables: Bool
    let wanted: Set<AccountKey>
    var primary: [ChangeKind: Int] = [:]
    var table: [ChangeKind: Int] = [:]
    var changes: [AccountChange] = []
    var previous: [AccountKey: FailOnPolicy.Previous] = [:]
    var newAccounts = 0
    var accountsWithNewFindings = 0

    mutating func add(_ account: CategoryPairRow) {
      if account.earlierCategory == nil { newAccounts += 1 }
      var change = AccountChange(accountId: account.accountId, primary: nil, table: nil)
      if let kind = ChangeKind.of(from: account.earlierCategory, to: account.category) {
        primary[kind, default: 0] += 1
        if kind != .persisting {
          change.primary = CategoryChange(
            from: account.earlierCategory, to: account.category, kind: kind)
        }
      }
      if comparesBothTables, let now = account.tableCategory,
        let kind = ChangeKind.of(from: account.earlierTableCategory, to: now)
      {
        table[kind, default: 0] += 1
        if kind != .persisting {
          change.table = CategoryChange(from: account.earlierTableCategory, to: now, kind: kind)
        }
      }
      if change.primary != nil || change.table != nil { changes.append(change) }
      if change.primary?.kind == .newFinding || change.table?.kind == .newFinding {
        accountsWithNewFindings += 1
      }
      if let before = account.earlierCategory, wanted.contains(AccountKey(account.accountId)) {
        previous[AccountKey(account.accountId)] = FailOnPolicy.Previous(
          category: DiscrepancyCategory(rawValue: before),
          tableCategory: account.earlierTableCategory.flatMap(DiscrepancyCategory.init(rawValue:)))
      }
    }

    func difference(earlier: RunRow) -> RunDifference {
      RunDifference(
        counts: RunChangeCounts(
          previousRunId: earlier.id,
          previousAsOf: Timestamp(millisecondsSince1970: earlier.asOfMilliseconds),
          primary: ChangeCounts(byKind: primary),
          table: comparesBothTables ? ChangeCounts(byKind: table) : nil,
          newAccounts: newAccounts, accountsWithNewFindings: accountsWithNewFindings),
        changes: changes, previous: previous)
    }
  }

  /// The difference between a recorded run and the run it is compared with: `since`, or the
  /// previous finished run of the store.
  ///
  /// One pass over both runs' stored classifications, by account: memory holds the changed
  /// accounts, not every account of either run.
  ///
  /// - Parameters:
  ///   - run: the run.
  ///   - since: the run to compare with, or `nil` for the previous finished one.
  ///   - store: the store.
  ///   - previousOf: the accounts whose earlier categories ``previous`` is to hold.
  /// - Returns: the difference, or `nil` when there is no earlier run.
  /// - Throws: ``RunRecipe/Failure`` for an unknown `since`; `SQLiteError`.
  public static func of(
    run: RunRow, since: String?, store: MigrationStore, previousOf: Set<AccountKey> = []
  ) throws -> RunDifference? {
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
    var accumulator = Accumulator(
      comparesBothTables: try RunRecipe.read(run).teamTableFile != nil
        && RunRecipe.read(earlier).teamTableFile != nil,
      wanted: previousOf)
    try store.forEachCategoryPair(runId: run.id, earlierRunId: earlier.id) {
      accumulator.add($0)
    }
    return accumulator.difference(earlier: earlier)
  }
}
