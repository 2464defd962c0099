import AppStoreServerAPI
import Entitlements
import LegacyReceipts
import MigrationStore

/// Plans a `link` run from the store alone (no network): audits every account's purchases
/// against the mapping, exactly as compare does, and lists what needs a token.
///
/// A purchase is planned when its token is missing or different. A family-shared purchase is
/// never planned (Apple offers no token there and answers 4000185) and one whose original
/// transaction the store does not hold is refused locally (Apple would answer 4000187): both are
/// listed with the reason, never sent.
public struct LinkPlanner {
  private let store: MigrationStore
  private let mapping: AccountTokenMapping

  /// Creates a planner.
  ///
  /// - Parameters:
  ///   - store: the store, with backfilled customers.
  ///   - mapping: the team's tokens.
  public init(store: MigrationStore, mapping: AccountTokenMapping) {
    self.store = store
    self.mapping = mapping
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
      // The compact forms, as compare reads them: the plan needs only the customers'
      // transactions, and the verbatim legacy bytes and signed values are the largest reads.
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
        guard let expected = audit.expectedToken else { continue }
        var refusal: String?
        if purchase.finding == .notApplicable {
          guard purchase.currentToken != expected else { continue }
          refusal = "family-shared: Apple offers no token for it (it would answer 4000185)"
        } else if !purchase.finding.needsWrite {
          continue
        } else if !purchase.isOriginalKnown {
          refusal =
            "the store holds no original purchase with this id (Apple would answer 4000187); "
            + "run backfill again"
        }
        writes.append(
          LinkPlan.Write(
            accountId: account, customerId: ids[purchase.customerKey], purchase: purchase,
            newToken: expected, refusal: refusal))
      }
    }
    return LinkPlan(
      writes: Self.refusingShared(writes), findings: findings, accounts: accounts.count)
  }

  /// One write per purchase. A purchase whose customer is linked to several accounts that each
  /// want their own token on it is refused: a purchase carries one token, and choosing an
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
      if claimants.count > 1 {
        write.refusal =
          "its customer is linked to accounts \(claimants.joined(separator: ", ")), which have "
          + "different tokens; a purchase carries one, so choose its account and set it with a "
          + "--tokens file that lists only that account's"
      }
      result.append(write)
    }
    return result
  }
}
