import Entitlements

/// The order reports list things in: what changes for customers first.
///
/// Categories go by impact (loses access, gains access, changes terms, needs attention, no
/// change), then by the taxonomy's precedence; accounts go by their category's place, then
/// by the id the report shows compared byte by byte (UTF-8), which is the same on every machine
/// and the same as SQLite's `BINARY` collation, so a store can sort the accounts itself.
public enum DisplayOrder {
  /// Every category, in display order.
  public static let categories: [DiscrepancyCategory] = DiscrepancyCategory.allCases.sorted(
    by: precedes)

  /// A category's place in display order, from 0.
  public static func rank(of category: DiscrepancyCategory) -> Int {
    ranks[category] ?? categories.count
  }

  private static let ranks = Dictionary(
    uniqueKeysWithValues: categories.enumerated().map { ($1, $0) })

  /// Whether `lhs` is listed before `rhs`.
  static func precedes(_ lhs: DiscrepancyCategory, _ rhs: DiscrepancyCategory) -> Bool {
    let lhsImpact = impactRank(lhs.impact)
    let rhsImpact = impactRank(rhs.impact)
    return lhsImpact != rhsImpact ? lhsImpact < rhsImpact : lhs < rhs
  }

  /// Whether the account `lhs` is listed before `rhs`.
  static func precedes(_ lhs: AccountComparison, _ rhs: AccountComparison) -> Bool {
    if lhs.category != rhs.category { return precedes(lhs.category, rhs.category) }
    return lhs.accountId.utf8.lexicographicallyPrecedes(rhs.accountId.utf8)
  }

  /// The accounts' ids in display order, sorted in memory: by category, then by the id the
  /// report shows (the pseudonym under `pseudonymizer`), then by account id.
  static func sorted(_ outline: [ComparisonOutline], pseudonymizer: Pseudonymizer?) -> [String] {
    outline.map { entry in
      let key = entry.displayKey(pseudonymizer: pseudonymizer)
      return (rank: key.rank, shown: key.shownId, id: entry.accountId)
    }.sorted { lhs, rhs in
      if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
      // Bytes, not `!=`: Swift strings that are canonically equivalent compare equal.
      if !lhs.shown.utf8.elementsEqual(rhs.shown.utf8) {
        return lhs.shown.utf8.lexicographicallyPrecedes(rhs.shown.utf8)
      }
      return lhs.id.utf8.lexicographicallyPrecedes(rhs.id.utf8)
    }.map(\.id)
  }

  private static func impactRank(_ impact: DiscrepancyCategory.Impact) -> Int {
    DiscrepancyCategory.Impact.allCases.firstIndex(of: impact) ?? 0
  }
}
