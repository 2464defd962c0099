import Entitlements

/// Counts the accounts a ``FailOnPolicy`` selects while the comparisons stream past, without
/// keeping them: accounts a selector takes whatever the previous run said are counted at once;
/// those only a `new:` selector may take are remembered by id (with the categories that could
/// make them new) until the previous run's categories are known.
public struct FailOnTally: Sendable {
  /// The policy.
  public let policy: FailOnPolicy
  private var decided = 0
  /// Accounts waiting for the previous run: id, current category and table category.
  private var pending:
    [(accountId: String, category: DiscrepancyCategory, tableCategory: DiscrepancyCategory?)] = []

  /// A tally of no accounts yet.
  public init(policy: FailOnPolicy) {
    self.policy = policy
  }

  /// Counts one account.
  public mutating func add(_ comparison: AccountComparison) {
    let oldSelectors = policy.selectors.filter { !$0.onlyNew }
    if oldSelectors.contains(where: { policy.matches($0, comparison, previous: nil) }) {
      decided += 1
      return
    }
    // A new: selector can take the account only if it takes it when nothing came before.
    if policy.selectors.contains(where: {
      $0.onlyNew && policy.matches($0, comparison, previous: nil)
    }) {
      pending.append((comparison.accountId, comparison.category, comparison.tableCategory))
    }
  }

  /// The accounts selected, once the previous run's categories are known.
  ///
  /// - Parameters:
  ///   - previous: each account's categories in the run compared with, or `nil` when there is
  ///     none (then every account is new).
  ///   - uncomparedSides: the sides the run compared with did not compare alike (another
  ///     catalogue, no team table): a `new:` selector of such a side takes no account, since
  ///     whether an account is new there cannot be known (``unevaluated(uncomparedSides:)``
  ///     names those selectors).
  /// - Returns: how many accounts the policy selects.
  public func count(
    previous: [AccountKey: FailOnPolicy.Previous]?,
    uncomparedSides: Set<FailOnPolicy.Side> = []
  ) -> Int {
    decided
      + pending.count { account in
        policy.selectors.contains { selector in
          guard selector.onlyNew, previous == nil || !uncomparedSides.contains(selector.side)
          else { return false }
          let now = selector.side == .primary ? account.category : account.tableCategory
          guard let now, selector.categories.contains(now) else { return false }
          let earlier = previous?[AccountKey(account.accountId)]
          return FailOnPolicy.isNew(
            to: selector,
            before: selector.side == .primary ? earlier?.category : earlier?.tableCategory)
        }
      }
  }

  /// The accounts whose category in the previous run decides whether they count (those a
  /// `new:` selector takes when nothing came before): the only ones ``count(previous:)`` looks
  /// up.
  public var accountsNeedingPrevious: Set<AccountKey> {
    Set(pending.map { AccountKey($0.accountId) })
  }

  /// Whether the selected accounts, and the lost notifications when the policy counts them,
  /// cross the threshold.
  ///
  /// - Parameters:
  ///   - previous: see ``count(previous:uncomparedSides:)``.
  ///   - uncomparedSides: see ``count(previous:uncomparedSides:)``.
  ///   - lostNotifications: how many notifications the run reports as lost.
  public func isCrossed(
    previous: [AccountKey: FailOnPolicy.Previous]?,
    uncomparedSides: Set<FailOnPolicy.Side> = [], lostNotifications: Int = 0
  ) -> Bool {
    count(previous: previous, uncomparedSides: uncomparedSides)
      + (policy.countsLostNotifications ? lostNotifications : 0) > policy.threshold
  }

  /// The `new:` selectors that could not be decided because the run compared with did not
  /// compare their side alike, as the user wrote them.
  ///
  /// - Parameter uncomparedSides: see ``count(previous:uncomparedSides:)``.
  /// - Returns: the selectors, in the order given.
  public func unevaluated(uncomparedSides: Set<FailOnPolicy.Side>) -> [String] {
    policy.selectors.filter { $0.onlyNew && uncomparedSides.contains($0.side) }.map(\.text)
  }
}
