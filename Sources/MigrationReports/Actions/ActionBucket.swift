import Entitlements

/// Which of the report's "what to do first" lines an account (or, for the team table, its table
/// side) belongs to: the differing accounts split by what a person should do about them.
enum ActionBucket: Hashable, Sendable, CaseIterable {
  /// The old and the new logic read the same moment differently, and the customer loses access.
  case logicLosesAccess
  /// The same, and the customer gains access.
  case logicGainsAccess
  /// The same, and the customer's terms change.
  case logicChangesTerms
  /// The team's own table decides otherwise than the App Store today (a customer loses or gains
  /// access or changes terms by it).
  case tableWrong
  /// The data cannot be compared as it is (an error status, no id, unknown, sandbox only, …).
  case needsAttention
  /// A key-level difference whose cause cannot be told: no capture instant is known.
  case undetermined
  /// A key-level difference that an old snapshot explains: nothing to do.
  case freshness

  /// The bucket of an account's primary classification, or `nil` when it matches.
  ///
  /// Key-level categories go by their cause; account-level categories (and any difference
  /// without a cause) need a person.
  static func primary(_ comparison: AccountComparison) -> ActionBucket? {
    let impact = comparison.category.impact
    switch impact {
    case .none: return nil
    case .needsAttention: return .needsAttention
    case .losesAccess, .gainsAccess, .changesTerms:
      switch comparison.cause {
      case .logic?:
        return impact == .losesAccess
          ? .logicLosesAccess : impact == .gainsAccess ? .logicGainsAccess : .logicChangesTerms
      case .freshness?: return .freshness
      // The comparison lacks an input the team gives it (a duration in the catalogue): a person
      // must supply it before the difference means anything.
      case .catalogue?: return .needsAttention
      case .undetermined?, nil: return .undetermined
      }
    }
  }
}
