import LegacyReceipts

/// The comparison of one entitlement key of an account: every side's view and the verdict.
public struct KeyComparison: Hashable, Sendable {
  /// The group or product.
  public var key: EntitlementKey
  /// The key's category.
  public var category: DiscrepancyCategory
  /// Why the sides differ; `nil` when they match.
  public var cause: DifferenceCause?
  /// The old logic at the comparison instant (`nil`: the legacy data knows nothing of the key).
  public var old: EntitlementView?
  /// The new logic at the comparison instant (`nil`: the App Store knows nothing of the key).
  public var new: EntitlementView?
  /// The old logic at the legacy response's capture instant.
  public var oldAtCapture: EntitlementView?
  /// The new logic reconstructed at the capture instant from the transaction history.
  public var newAtCapture: EntitlementView?
  /// The team's table, when one was given.
  public var table: EntitlementView?
  /// The table's category against the App Store, when a table was given.
  public var tableCategory: DiscrepancyCategory?
  /// One line for people: "refunded on 2025-10-02 (REFUND_FULL); the snapshot predates it".
  public var explanation: String

  /// Creates a key comparison.
  public init(
    key: EntitlementKey, category: DiscrepancyCategory, cause: DifferenceCause?,
    old: EntitlementView?,
    new: EntitlementView?, oldAtCapture: EntitlementView? = nil,
    newAtCapture: EntitlementView? = nil,
    table: EntitlementView? = nil, tableCategory: DiscrepancyCategory? = nil, explanation: String
  ) {
    self.key = key
    self.category = category
    self.cause = cause
    self.old = old
    self.new = new
    self.oldAtCapture = oldAtCapture
    self.newAtCapture = newAtCapture
    self.table = table
    self.tableCategory = tableCategory
    self.explanation = explanation
  }
}
