import Entitlements
import MigrationReports
import MigrationStore

/// Compares two runs' classifications account by account, read-only.
///
/// The earlier side is held as one small row per account (id, categories, explanation); the
/// later side is streamed past it, so memory grows with one run's accounts, never with both.
/// Accounts are matched by id exactly as `compare` matches them (``AccountKey``), so runs of
/// different stores or tool versions are compared by account id.
public enum RunDiffer {
  /// Why a diff cannot be made.
  public struct Failure: Error, CustomStringConvertible {
    /// The message.
    public var description: String
  }

  /// The difference from `before` to `after`.
  ///
  /// - Parameters:
  ///   - before: the earlier side.
  ///   - after: the later side.
  /// - Returns: the diff.
  /// - Throws: ``RunDiffSide/Failure`` for a side that cannot be read, ``Failure`` for an
  ///   account a side lists twice; `SQLiteError`.
  public static func diff(_ before: RunDiffSide, _ after: RunDiffSide) throws -> RunDiff {
    var earlier: [AccountKey: ComparisonRow] = [:]
    try before.forEachClassification { row in
      let key = AccountKey(row.accountId)
      guard earlier.updateValue(row, forKey: key) == nil else {
        throw Failure(description: "\(before.facts.source) lists the account \(key) twice")
      }
    }
    let accountsBefore = earlier.count
    let compareTables = before.facts.comparedTable && after.facts.comparedTable
    var primary: [ChangeKind: Int] = [:]
    var table: [ChangeKind: Int] = [:]
    var changes: [AccountDiff] = []
    var onlyAfter: [String] = []
    var seen: Set<AccountKey> = []
    try after.forEachClassification { row in
      let key = AccountKey(row.accountId)
      guard seen.insert(key).inserted else {
        throw Failure(description: "\(after.facts.source) lists the account \(key) twice")
      }
      guard let old = earlier.removeValue(forKey: key) else {
        onlyAfter.append(row.accountId)
        return
      }
      var change = AccountDiff(
        accountId: row.accountId, primary: nil, table: nil, evidenceRemoved: [],
        evidenceAdded: [])
      if let kind = ChangeKind.of(from: old.category, to: row.category) {
        primary[kind, default: 0] += 1
        if kind != .persisting {
          change.primary = CategoryChange(from: old.category, to: row.category, kind: kind)
        }
      }
      if compareTables, let now = row.tableCategory,
        let kind = ChangeKind.of(from: old.tableCategory, to: now)
      {
        table[kind, default: 0] += 1
        if kind != .persisting {
          change.table = CategoryChange(from: old.tableCategory, to: now, kind: kind)
        }
      }
      guard change.primary != nil || change.table != nil else { return }
      let was = AccountDiff.evidenceLines(old.explanation)
      let now = AccountDiff.evidenceLines(row.explanation)
      change.evidenceRemoved = was.filter { !now.contains($0) }
      change.evidenceAdded = now.filter { !was.contains($0) }
      changes.append(change)
    }
    func ordered(_ ids: some Sequence<String>) -> [String] {
      ids.sorted { AccountKey($0) < AccountKey($1) }
    }
    return RunDiff(
      before: before.facts, after: after.facts, primary: ChangeCounts(byKind: primary),
      table: compareTables ? ChangeCounts(byKind: table) : nil,
      accountsBefore: accountsBefore, accountsAfter: seen.count,
      onlyBefore: ordered(earlier.values.map(\.accountId)), onlyAfter: ordered(onlyAfter),
      changes: changes.sorted { AccountKey($0.accountId) < AccountKey($1.accountId) })
  }
}
