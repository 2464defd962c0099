import Entitlements

/// The `appAccountToken` audit over a run's accounts: how many purchases and accounts are in
/// each finding, and the purchases a `link` would change, leaks first.
struct TokenAuditStatistics: Sendable {
  /// Purchases per finding.
  let purchases: [TokenFinding: Int]
  /// Accounts per finding (an account counts under its most important purchase's finding).
  let accounts: [TokenFinding: Int]
  /// Every purchase `link` would write, with its account: leaks (another account's token)
  /// first, then other different tokens, then missing ones; by account within each.
  let writes: [(accountId: String, purchase: PurchaseToken)]

  init(comparisons: [AccountComparison]) {
    var purchases: [TokenFinding: Int] = [:]
    var accounts: [TokenFinding: Int] = [:]
    var writes: [(accountId: String, purchase: PurchaseToken)] = []
    for comparison in comparisons {
      guard let audit = comparison.tokenAudit else { continue }
      for purchase in audit.purchases {
        purchases[purchase.finding, default: 0] += 1
      }
      if let finding = audit.finding { accounts[finding, default: 0] += 1 }
      for purchase in audit.writes { writes.append((audit.accountId, purchase)) }
    }
    self.purchases = purchases
    self.accounts = accounts
    self.writes = writes.sorted { lhs, rhs in
      let left = Self.rank(lhs.purchase)
      let right = Self.rank(rhs.purchase)
      if left != right { return left < right }
      if lhs.accountId != rhs.accountId {
        return lhs.accountId.utf8.lexicographicallyPrecedes(rhs.accountId.utf8)
      }
      return lhs.purchase.originalTransactionId < rhs.purchase.originalTransactionId
    }
  }

  /// One sentence for the headline: the purchases per finding, the leaks, the writes needed.
  var sentence: String {
    let counts = TokenFinding.allCases.compactMap { finding in
      purchases[finding].map { "\(ReportFormatting.count($0)) \(Self.label(finding))" }
    }
    let found = counts.isEmpty ? "no purchases" : counts.joined(separator: ", ")
    return "purchases \(found); \(ReportFormatting.count(leaks)) association leak(s); "
      + "\(ReportFormatting.count(writes.count)) write(s) a link would make (account-tokens.csv)"
  }

  /// Purchases carrying another account's token: association leaks.
  var leaks: Int { writes.count { $0.purchase.tokenOwner != nil } }

  /// The columns of `account-tokens.csv`, and what each means in the text.
  static func reason(_ purchase: PurchaseToken) -> String {
    if let owner = purchase.tokenOwner {
      return "association leak: carries account \(owner)'s token"
    }
    return purchase.finding == .missing ? "no token" : "a token the mapping does not know"
  }

  private static func rank(_ purchase: PurchaseToken) -> Int {
    if purchase.tokenOwner != nil { return 0 }
    return purchase.finding == .different ? 1 : 2
  }

  /// How people read a finding's count.
  static func label(_ finding: TokenFinding) -> String {
    switch finding {
    case .different: "different (a leak when another account's)"
    case .missing: "missing"
    case .unmapped: "account not in the mapping"
    case .matches: "matching"
    case .notApplicable: "not applicable (family-shared)"
    }
  }
}
