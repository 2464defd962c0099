import Entitlements

/// What a `link` run would write: per account, each purchase whose token is missing or
/// different, and the purchases the tool refuses locally because Apple would refuse them.
public struct LinkPlan: Sendable {
  /// One purchase to write.
  public struct Write: Hashable, Sendable {
    /// The team's account.
    public var accountId: String
    /// The stored customer holding the purchase.
    public var customerId: Int64?
    /// The purchase, as the audit saw it.
    public var purchase: PurchaseToken
    /// The token to write.
    public var newToken: String
    /// Why the tool will not send it, when it will not.
    public var refusal: String?

    /// Creates a write.
    public init(
      accountId: String, customerId: Int64?, purchase: PurchaseToken, newToken: String,
      refusal: String? = nil
    ) {
      self.accountId = accountId
      self.customerId = customerId
      self.purchase = purchase
      self.newToken = newToken
      self.refusal = refusal
    }
  }

  /// Every write, by account and original transaction id; refused ones included.
  public var writes: [Write]
  /// How many purchases the audit found in each state, over every account.
  public var findings: [TokenFinding: Int]
  /// How many accounts were audited.
  public var accounts: Int

  /// Creates a plan.
  public init(writes: [Write], findings: [TokenFinding: Int], accounts: Int) {
    self.writes = writes
    self.findings = findings
    self.accounts = accounts
  }

  /// The writes that will be sent.
  public var sendable: [Write] { writes.filter { $0.refusal == nil } }

  /// The writes refused locally.
  public var refused: [Write] { writes.filter { $0.refusal != nil } }
}
