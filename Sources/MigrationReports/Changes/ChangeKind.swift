/// How an account's category moved from one run to the next.
public enum ChangeKind: String, CaseIterable, Hashable, Sendable {
  /// It was a match (or new to the store) and now has a finding.
  case newFinding = "new_finding"
  /// It had a finding and now matches.
  case resolved
  /// The same finding as before.
  case persisting
  /// Another finding than before.
  case categoryChanged = "category_changed"

  /// Words for people.
  public var title: String {
    switch self {
    case .newFinding: "new finding"
    case .resolved: "resolved"
    case .persisting: "persisting"
    case .categoryChanged: "category changed"
    }
  }

  /// The kind of a move from `old` (`nil`: the account is new) to `new`, or `nil` when an
  /// account matched both times (nothing to report).
  ///
  /// - Parameters:
  ///   - old: the previous run's category.
  ///   - new: this run's.
  public static func of(from old: String?, to new: String) -> ChangeKind? {
    let oldFinding = old.map { $0 != "match" } ?? false
    let newFinding = new != "match"
    switch (oldFinding, newFinding) {
    case (false, false): return nil
    case (false, true): return .newFinding
    case (true, false): return .resolved
    case (true, true): return old == new ? .persisting : .categoryChanged
    }
  }
}
