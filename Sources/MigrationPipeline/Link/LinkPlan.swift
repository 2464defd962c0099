import Chronology
import Entitlements

/// What a `link` run would write: per account, each purchase whose token is missing or
/// different, with the reason when the tool leaves it out.
public struct LinkPlan: Sendable {
  /// One purchase whose token is missing or different.
  public struct Write: Hashable, Sendable {
    /// The team's account.
    public var accountId: String
    /// The stored customer holding the purchase.
    public var customerId: Int64?
    /// The purchase, as the audit saw it.
    public var purchase: PurchaseToken
    /// The token to write.
    public var newToken: String
    /// Why the tool leaves it out, when it does.
    public var skip: LinkSkipReason?
    /// The explanation journaled with a skipped write.
    public var note: String?

    /// Creates a write.
    public init(
      accountId: String, customerId: Int64?, purchase: PurchaseToken, newToken: String,
      skip: LinkSkipReason? = nil, note: String? = nil
    ) {
      self.accountId = accountId
      self.customerId = customerId
      self.purchase = purchase
      self.newToken = newToken
      self.skip = skip
      self.note = note ?? skip.map(LinkPlanner.explanation)
    }
  }

  /// Every purchase whose token is missing or different, by account and original transaction
  /// id; skipped ones included.
  public var writes: [Write]
  /// How many purchases the audit found in each state, over every account.
  public var findings: [TokenFinding: Int]
  /// How many accounts were audited.
  public var accounts: Int
  /// The instant the purchases were judged at (the App Store's clock).
  public var asOf: Timestamp
  /// Which purchases were in scope.
  public var scope: LinkScope

  /// Creates a plan.
  public init(
    writes: [Write], findings: [TokenFinding: Int], accounts: Int, asOf: Timestamp,
    scope: LinkScope = LinkScope()
  ) {
    self.writes = writes
    self.findings = findings
    self.accounts = accounts
    self.asOf = asOf
    self.scope = scope
  }

  /// The writes that will be sent.
  public var sendable: [Write] { writes.filter { $0.skip == nil } }

  /// The writes left out, with their reasons.
  public var skipped: [Write] { writes.filter { $0.skip != nil } }
}
