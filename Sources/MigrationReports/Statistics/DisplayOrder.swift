import Entitlements

/// The order reports list things in: what changes for customers first.
///
/// Categories go by impact (loses access, gains access, changes terms, needs attention, no
/// change), then by the taxonomy's precedence; accounts go by their category's place, then
/// by account id compared byte by byte (UTF-8), which is the same on every machine.
enum DisplayOrder {
  /// Every category, in display order.
  static let categories: [DiscrepancyCategory] = DiscrepancyCategory.allCases.sorted(by: precedes)

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

  private static func impactRank(_ impact: DiscrepancyCategory.Impact) -> Int {
    DiscrepancyCategory.Impact.allCases.firstIndex(of: impact) ?? 0
  }
}
