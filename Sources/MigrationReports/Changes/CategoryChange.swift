/// One side's move of one account between two runs: from which category to which.
public struct CategoryChange: Hashable, Sendable {
  /// The previous run's category; `nil` when the account is new to the store.
  public var from: String?
  /// This run's category.
  public var to: String
  /// What kind of move it is.
  public var kind: ChangeKind

  /// Creates a change.
  public init(from: String?, to: String, kind: ChangeKind) {
    self.from = from
    self.to = to
    self.kind = kind
  }

  /// "match → refund_missed".
  public var arrow: String { "\(from ?? "none") → \(to)" }
}
