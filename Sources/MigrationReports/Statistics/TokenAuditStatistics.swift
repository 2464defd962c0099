import Entitlements

/// The `appAccountToken` audit over a run's accounts: how many purchases and accounts are in
/// each finding, and the purchases a `link` would change, leaks first.
struct TokenAuditStatistics: Sendable {
  /// Purchases per finding.
  private(set) var purchases: [TokenFinding: Int] = [:]
  /// Accounts per finding (an account counts under its most important purchase's finding).
  private(set) var accounts: [TokenFinding: Int] = [:]
  /// Every purchase `link` would write, with its account: leaks (another account's token)
  /// first, then other different tokens, then missing ones; by account within each.
  private(set) var writes: [(accountId: String, purchase: PurchaseToken)] = []

  /// Counts of no accounts yet; ``add(_:)`` each, then ``finish()``.
  init() {}

  /// The counts of these accounts.
  init(comparisons: [AccountComparison]) {
    for comparison in comparisons { add(comparison) }
    finish()
  }

  /// Counts one account's audit. The writes a link would make are kept (they are
  /// `account-tokens.csv`, sorted leaks first), so memory grows with them.
  mutating func add(_ comparison: AccountComparison) {
    guard let audit = comparison.tokenAudit else { return }
    for purchase in audit.purchases {
      purchases[purchase.finding, default: 0] += 1
    }
    if let finding = audit.finding { accounts[finding, default: 0] += 1 }
    for purchase in audit.writes { writes.append((audit.accountId, purchase)) }
  }

  /// Orders the writes: association leaks first, then other tokens, then missing ones.
  mutating func finish() {
    writes.sort { lhs, rhs in
      let left = Self.rank(lhs.purchase)
      let right = Self.rank(rhs.purchase)
      if left != right { return left < right }
      if lhs.accountId != rhs.accountId {
        return lhs.accountId.utf8.lexicographicallyPrecedes(rhs.accountId.utf8)
      }
      return lhs.purchase.originalTransactionId < rhs.purchase.originalTransactionId
    }
  }

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
