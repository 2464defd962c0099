/// What the audit found for one purchase's `appAccountToken`, compared with the team's mapping.
///
/// Ordered by how much a person should care: ``different`` first, because a purchase carrying
/// another account's token is an association leak — the team's server would credit the purchase
/// (and every notification about it) to the wrong account.
public enum TokenFinding: String, Sendable, Hashable, CaseIterable, Comparable {
  /// The purchase carries a token that is not this account's: another account's (a leak), or
  /// one the mapping does not know.
  case different
  /// The purchase carries no token.
  case missing
  /// The mapping has no token for the account, so the purchase cannot be judged.
  case unmapped
  /// The purchase carries this account's token.
  case matches
  /// Family-shared: Apple offers no token for it, so there is nothing to compare or set.
  case notApplicable = "not_applicable"

  /// Whether `link` would set a token on a purchase with this finding.
  public var needsWrite: Bool { self == .different || self == .missing }

  /// Orders findings by how much a person should care, ``different`` first.
  ///
  /// - Parameters:
  ///   - lhs: A finding.
  ///   - rhs: Another finding.
  /// - Returns: Whether `lhs` matters more than `rhs`.
  public static func < (lhs: TokenFinding, rhs: TokenFinding) -> Bool {
    let order = TokenFinding.allCases
    return order.firstIndex(of: lhs) ?? 0 < order.firstIndex(of: rhs) ?? 0
  }
}
