import Chronology
import Entitlements
import MigrationReports
import MigrationStore

/// How a run's classification differs from an earlier run of the same store: per account, a
/// new finding, resolved, persisting, or another category — for the primary category and for
/// the team table's — counted, and listed for the accounts whose category changed. Accounts
/// only the earlier run classified are not counted: they are no longer in the store's input;
/// nor is a side the two runs did not compare alike (``RunInputsComparison``).
public struct RunDifference: Sendable {
  /// The counts.
  public var counts: RunChangeCounts
  /// The accounts whose primary or table category changed, by account id.
  public var changes: [AccountChange]
  /// The earlier run's categories of the accounts asked for (for `--fail-on new:…`); an
  /// account the earlier run did not classify is absent.
  public var previous: [AccountKey: FailOnPolicy.Previous]

  /// Whether the two runs' sides could be compared, and how their inputs differ.
  public var inputs: RunInputsComparison

  /// The sides of `--fail-on` selectors whose `new:` cannot be decided against the earlier run,
  /// because the two runs did not compare that side alike.
  public var uncomparedSides: Set<FailOnPolicy.Side> {
    var sides: Set<FailOnPolicy.Side> = []
    if !inputs.primaryComparable { sides.insert(.primary) }
    if !inputs.tableComparable { sides.insert(.table) }
    return sides
  }

  /// Counts a run's categories against an earlier run's, one account at a time, in account
  /// order: nothing is held but the counts, the accounts whose category changed, and the
  /// earlier categories of the accounts asked for. A side the two runs did not compare alike
  /// is neither counted nor listed.
  struct Accumulator {
    let inputs: RunInputsComparison
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
      if inputs.primaryComparable,
        let kind = ChangeKind.of(from: account.earlierCategory, to: account.category)
      {
        primary[kind, default: 0] += 1
        if kind != .persisting {
          change.primary = CategoryChange(
            from: account.earlierCategory, to: account.category, kind: kind)
        }
      }
      if inputs.tableComparable, let now = account.tableCategory,
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
          primary: inputs.primaryComparable ? ChangeCounts(byKind: primary) : nil,
          table: inputs.tableComparable ? ChangeCounts(byKind: table) : nil,
          newAccounts: newAccounts, inputDifferences: inputs.differences,
          accountsWithNewFindings: accountsWithNewFindings),
        changes: changes, previous: previous, inputs: inputs)
    }
  }

  /// The difference between a recorded run and the run it is compared with: `since`, or the
  /// store's baseline for it — the last run before it whose report was committed, of the same
  /// inputs when there is one (see ``RunLedger/baseline(before:recipeKey:)``).
  ///
  /// One pass over both runs' stored classifications, by account: memory holds the changed
  /// accounts, not every account of either run.
  ///
  /// - Parameters:
  ///   - run: the run.
  ///   - since: the run to compare with, or `nil` for the baseline.
  ///   - store: the store.
  ///   - previousOf: the accounts whose earlier categories ``previous`` is to hold.
  /// - Returns: the difference, or `nil` when there is no earlier run.
  /// - Throws: ``RunRecipe/Failure`` for an unknown `since`; `SQLiteError`.
  public static func of(
    run: RunRow, since: String?, store: MigrationStore, previousOf: Set<AccountKey> = []
  ) throws -> RunDifference? {
    let earlier: RunRow
    if let since {
      guard let named = try store.runLedger.run(since), named.finishedMilliseconds != nil else {
        throw RunRecipe.Failure(
          description: "--since \(since): the database \(store.path) has no finished run "
            + "with that id")
      }
      earlier = named
    } else {
      guard let found = try store.runLedger.baseline(before: run, recipeKey: run.recipeKey)
      else { return nil }
      earlier = found
    }
    var accumulator = Accumulator(
      inputs: RunInputsComparison(
        run: try RunRecipe.read(run), earlier: try RunRecipe.read(earlier), earlierId: earlier.id),
      wanted: previousOf)
    try store.forEachCategoryPair(runId: run.id, earlierRunId: earlier.id) {
      accumulator.add($0)
    }
    return accumulator.difference(earlier: earlier)
  }
}
