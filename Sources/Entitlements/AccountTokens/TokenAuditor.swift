import AppStoreServerAPI
import Chronology

/// Checks every purchase of an account's customers against the token the team's mapping gives
/// the account. Pure: the same inputs give the same audit.
///
/// A purchase is what Set App Account Token names: a one-time purchase, or a subscription's
/// latest purchase — both by original transaction id. Its current token is its latest
/// transaction's, since Apple sets a token on the latest purchase and carries it to future
/// renewals, never back to past ones.
public struct TokenAuditor: Sendable {
  /// One customer of the account, as the audit reads it.
  public struct Customer: Sendable {
    /// The customer's key.
    public var key: String
    /// The environment that knows it.
    public var environment: String
    /// Its transactions.
    public var transactions: [JWSTransaction]
    /// Tokens `link` set after the transactions were stored, by original transaction id: what
    /// the App Store carries now, before the next backfill fetches it.
    public var writtenTokens: [String: String]

    /// Creates a customer.
    public init(
      key: String, environment: String, transactions: [JWSTransaction],
      writtenTokens: [String: String] = [:]
    ) {
      self.key = key
      self.environment = environment
      self.transactions = transactions
      self.writtenTokens = writtenTokens
    }
  }

  /// The team's mapping.
  public let mapping: AccountTokenMapping

  /// Creates an auditor.
  ///
  /// - Parameter mapping: the team's tokens.
  public init(mapping: AccountTokenMapping) {
    self.mapping = mapping
  }

  /// Audits one account.
  ///
  /// - Parameters:
  ///   - accountId: the account.
  ///   - customers: its App Store customers.
  /// - Returns: the audit, purchases by customer key and original transaction id.
  public func audit(accountId: String, customers: [Customer]) -> AccountTokenAudit {
    let expected = mapping.token(forAccount: accountId)
    var purchases: [PurchaseToken] = []
    for customer in customers.sorted(by: { $0.key < $1.key }) {
      var byOriginal: [String: [JWSTransaction]] = [:]
      for transaction in customer.transactions {
        guard let original = transaction.originalTransactionId ?? transaction.transactionId
        else { continue }
        byOriginal[original, default: []].append(transaction)
      }
      for (original, transactions) in byOriginal.sorted(by: { $0.key < $1.key }) {
        guard let latest = Self.latest(of: transactions) else { continue }
        let current = (customer.writtenTokens[original] ?? latest.appAccountToken)?.lowercased()
        let finding = Self.finding(
          current: current, expected: expected,
          isFamilyShared: latest.inAppOwnershipType == .familyShared)
        let owner = current.flatMap { mapping.account(owning: $0) }
        // Another account's only when its bytes differ: an id equivalent to this one is another.
        let ownedElsewhere = owner.map { !AccountKey.haveSameBytes($0, accountId) } ?? false
        purchases.append(
          PurchaseToken(
            customerKey: customer.key, environment: customer.environment,
            originalTransactionId: original, productId: latest.productId,
            isSubscription: latest.type == .autoRenewableSubscription,
            isOriginalKnown: transactions.contains {
              $0.transactionId == original && $0.originalTransactionId == original
            },
            currentToken: current, expectedToken: expected,
            tokenOwner: finding == .different && ownedElsewhere ? owner : nil,
            finding: finding, latest: latest))
      }
    }
    return AccountTokenAudit(accountId: accountId, expectedToken: expected, purchases: purchases)
  }

  /// The purchase's latest transaction: the latest purchase date, then the highest id.
  static func latest(of transactions: [JWSTransaction]) -> JWSTransaction? {
    transactions.max { lhs, rhs in
      let left = lhs.purchaseDate?.millisecondsSince1970 ?? .min
      let right = rhs.purchaseDate?.millisecondsSince1970 ?? .min
      if left != right { return left < right }
      return (lhs.transactionId ?? "").count < (rhs.transactionId ?? "").count
        || ((lhs.transactionId ?? "").count == (rhs.transactionId ?? "").count
          && (lhs.transactionId ?? "") < (rhs.transactionId ?? ""))
    }
  }

  static func finding(current: String?, expected: String?, isFamilyShared: Bool) -> TokenFinding {
    if isFamilyShared { return .notApplicable }
    guard let expected else { return .unmapped }
    guard let current else { return .missing }
    return current == expected ? .matches : .different
  }
}
