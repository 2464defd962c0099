import AppStoreServerAPI
import Chronology
import Entitlements
import LegacyReceipts
import MigrationStore

/// Plans a `link` run from the store alone (no network): audits every account's purchases
/// against the mapping, exactly as compare does, and lists each purchase whose token is missing
/// or different — to be written when it is in the scope (``LinkScope``), skipped with the
/// reason otherwise.
///
/// Skipped besides the scope's exclusions: a purchase whose original transaction the store does
/// not hold (Apple would answer 4000187), and one whose customer is linked to several accounts
/// that each want their own token on it (a purchase carries one token; which account owns it
/// is the team's decision).
public struct LinkPlanner {
  private let store: MigrationStore
  private let mapping: AccountTokenMapping
  private let scope: LinkScope
  private let asOf: Timestamp

  /// Creates a planner.
  ///
  /// - Parameters:
  ///   - store: the store, with backfilled customers.
  ///   - mapping: the team's tokens.
  ///   - scope: which purchases are written.
  ///   - asOf: the instant purchases are judged at (the App Store's clock).
  public init(
    store: MigrationStore, mapping: AccountTokenMapping, scope: LinkScope = LinkScope(),
    asOf: Timestamp
  ) {
    self.store = store
    self.mapping = mapping
    self.scope = scope
    self.asOf = asOf
  }

  /// Plans every account.
  ///
  /// - Returns: the plan.
  /// - Throws: `SQLiteError`, or a stored value that cannot be read back.
  public func plan() throws -> LinkPlan {
    let auditor = TokenAuditor(mapping: mapping)
    var writes: [LinkPlan.Write] = []
    var findings: [TokenFinding: Int] = [:]
    let accounts = try store.accountIds()
    for account in accounts {
      try StopRequest.checkpoint()
      let records = try store.accountRecords(
        account, compactFormat: CompactResponse.formatVersion,
        compactTransactionFormat: CompactTransaction.formatVersion)
      let customers = try records.customers.map { customer in
        TokenAuditor.Customer(
          key: customer.row.key, environment: customer.row.environment,
          transactions: try CompareStage.storedTransactions(of: customer),
          writtenTokens: customer.writtenTokens)
      }
      let ids = Dictionary(
        records.customers.map { ($0.row.key, $0.row.id) }, uniquingKeysWith: { first, _ in first })
      let audit = auditor.audit(accountId: account, customers: customers)
      for purchase in audit.purchases {
        findings[purchase.finding, default: 0] += 1
        guard let expected = audit.expectedToken, purchase.finding.needsWrite else { continue }
        writes.append(
          LinkPlan.Write(
            accountId: account, customerId: ids[purchase.customerKey], purchase: purchase,
            newToken: expected, skip: skip(purchase)))
      }
    }
    return LinkPlan(
      writes: Self.refusingShared(writes), findings: findings, accounts: accounts.count,
      asOf: asOf, scope: scope)
  }

  /// Why a purchase that lacks its token is left out, or `nil` to write it.
  func skip(_ purchase: PurchaseToken) -> LinkSkipReason? {
    if let excluded = scope.exclusion(of: purchase, at: asOf) { return excluded }
    return purchase.isOriginalKnown ? nil : .notOriginal
  }

  /// One write per purchase. A purchase whose customer is linked to several accounts that each
  /// want their own token on it is skipped: a purchase carries one token, and choosing an
  /// account for it is the team's decision, not a guess of the tool's.
  static func refusingShared(_ writes: [LinkPlan.Write]) -> [LinkPlan.Write] {
    var accounts: [String: [String]] = [:]
    for write in writes {
      accounts[write.purchase.originalTransactionId, default: []].append(write.accountId)
    }
    var seen: Set<String> = []
    var result: [LinkPlan.Write] = []
    for var write in writes where seen.insert(write.purchase.originalTransactionId).inserted {
      let claimants = accounts[write.purchase.originalTransactionId] ?? []
      if claimants.count > 1, write.skip == nil {
        write.skip = .severalAccounts
        write.note = explanation(.severalAccounts, claimants: claimants)
      }
      result.append(write)
    }
    return result
  }

  /// The explanation journaled with a skipped write.
  ///
  /// - Parameters:
  ///   - reason: why it is skipped.
  ///   - claimants: for ``LinkSkipReason/severalAccounts``, the accounts claiming it.
  /// - Returns: the sentence.
  static func explanation(_ reason: LinkSkipReason) -> String {
    explanation(reason, claimants: [])
  }

  static func explanation(_ reason: LinkSkipReason, claimants: [String]) -> String {
    switch reason {
    case .severalAccounts:
      "its customer is linked to accounts \(claimants.joined(separator: ", ")) with different "
        + "tokens; a purchase carries one: choose its account, and write it with a --tokens file "
        + "that lists only that one"
    case .notOriginal:
      "the store holds no original purchase with this id (Apple would answer 4000187); run "
        + "backfill again"
    default:
      reason.label
    }
  }
}
