import Entitlements

/// Counts the accounts of each ``ActionBucket`` and what their differing keys are worth, one
/// account at a time, so the report can order its "what to do first" lines by money at stake.
///
/// An account's money is the sum of its keys that differ on the side the bucket reads: the
/// primary classification's differing keys for the primary buckets, the keys whose team-table
/// category is wrong (``isWrong(_:)``) for ``ActionBucket/tableWrong``. Each key is valued as in
/// ``MoneyAtStake``, per currency, never converted.
struct ActionTally: Hashable, Sendable {
  /// Accounts per bucket.
  private(set) var accounts: [ActionBucket: Int] = [:]
  /// Money per bucket, then currency.
  private(set) var money: [ActionBucket: [String: MoneyAtStake.Amounts]] = [:]
  /// Accounts per category within ``ActionBucket/needsAttention``, to name the largest.
  private(set) var attention: [DiscrepancyCategory: Int] = [:]

  /// Counts one account.
  mutating func add(_ comparison: AccountComparison) {
    if let bucket = ActionBucket.primary(comparison) {
      accounts[bucket, default: 0] += 1
      if bucket == .needsAttention { attention[comparison.category, default: 0] += 1 }
      for key in comparison.keys where key.category != .match {
        add(key, to: bucket)
      }
    }
    if let table = comparison.tableCategory, Self.isWrong(table) {
      accounts[.tableWrong, default: 0] += 1
      for key in comparison.keys {
        guard let category = key.tableCategory, Self.isWrong(category) else { continue }
        add(key, to: .tableWrong)
      }
    }
  }

  /// Whether a team-table category says the table decides otherwise than the App Store today:
  /// a customer who loses access, gains it or changes terms. A table category that needs
  /// attention (no transaction id, an error status) says the table cannot be judged, not that
  /// it is wrong.
  static func isWrong(_ tableCategory: DiscrepancyCategory) -> Bool {
    switch tableCategory.impact {
    case .losesAccess, .gainsAccess, .changesTerms: return true
    case .needsAttention, .none: return false
    }
  }

  private mutating func add(_ key: KeyComparison, to bucket: ActionBucket) {
    guard let (currency, amounts) = MoneyAtStake.value(of: key) else { return }
    MoneyAtStake.merge(amounts, into: &money[bucket, default: [:]][currency])
  }

  /// Accounts in a bucket.
  func count(_ bucket: ActionBucket) -> Int { accounts[bucket] ?? 0 }

  /// What a bucket's differing keys are worth, per currency.
  func value(_ bucket: ActionBucket) -> [String: MoneyAtStake.Amounts] { money[bucket] ?? [:] }
}
