/// Why `link` leaves a purchase without the account's token: decided when the run is planned,
/// when Apple is asked again just before a write, or when an undo finds the purchase changed.
/// The raw values are stable: the journal and `--json` carry them.
public enum LinkSkipReason: String, Sendable, Hashable, CaseIterable, Comparable {
  // MARK: Never written: Apple refuses, or the choice is the team's

  /// Shared through Family Sharing: Apple offers no token for it (it answers `4000185`).
  case familyShared = "family_shared"
  /// Owned as `ASSIGNED`: Apple refuses a token for it (`4000227`).
  case assigned
  /// The store holds no original purchase with this id (Apple would answer `4000187`).
  case notOriginal = "not_original"
  /// Its customer is linked to several accounts with different tokens.
  case severalAccounts = "several_accounts"

  // MARK: Out of the default scope (flags widen it)

  /// A consumable: used up, nothing follows it but a refund.
  case consumable
  /// Refunded or revoked.
  case revoked
  /// A subscription that lapsed, or a non-renewing subscription bought, longer ago than the
  /// scope's window.
  case lapsed

  // MARK: Found when Apple is asked again

  /// Apple already holds the token this run would write.
  case alreadySet = "already_set"
  /// The purchase's token at Apple is no longer the one the plan saw (set in the app, or by
  /// another writer, since the last fetch): overwriting it is not the tool's decision.
  case changedSincePlan = "changed_since_plan"

  // MARK: Undo

  /// The purchase had no token before the run: Apple cannot remove one.
  case noPreviousToken = "no_previous_token"
  /// The purchase no longer carries the token the run wrote: something set another since.
  case tokenReplacedSince = "token_replaced_since"

  /// How people read it.
  public var label: String {
    switch self {
    case .familyShared: "family-shared (Apple offers no token: 4000185)"
    case .assigned: "assigned ownership (Apple refuses a token: 4000227)"
    case .notOriginal: "no original purchase stored (Apple would answer 4000187)"
    case .severalAccounts: "customer linked to several accounts"
    case .consumable: "consumable (--include consumables)"
    case .revoked: "refunded or revoked (--include revoked)"
    case .lapsed: "lapsed (--include lapsed, or a longer --lapsed-within)"
    case .alreadySet: "already carries the token at Apple"
    case .changedSincePlan: "token changed at Apple since the last fetch (not overwritten)"
    case .noPreviousToken: "had no token before (Apple cannot remove one)"
    case .tokenReplacedSince: "carries another token than the run's now (left alone)"
    }
  }

  /// Orders reasons as declared.
  ///
  /// - Parameters:
  ///   - lhs: A reason.
  ///   - rhs: Another reason.
  /// - Returns: Whether `lhs` is declared first.
  public static func < (lhs: LinkSkipReason, rhs: LinkSkipReason) -> Bool {
    let order = LinkSkipReason.allCases
    return order.firstIndex(of: lhs) ?? 0 < order.firstIndex(of: rhs) ?? 0
  }
}
