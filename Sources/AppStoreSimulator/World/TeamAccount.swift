import LegacyReceipts

/// An account in the team's own system: the Apple Accounts it is linked to and the records the
/// team stored for it.
public struct TeamAccount: Hashable, Sendable {
  /// The team's account id.
  public var id: String
  /// The customers (Apple Accounts) this account is linked to.
  public var customers: [Int]
  /// The records the team stored, oldest first.
  public var snapshots: [LegacySnapshot]
  /// The bugs of the team's legacy code that decided this account's row in the current
  /// entitlement table.
  public var tableFlaws: [LegacyLogicFlaw]

  /// Creates an account.
  public init(
    id: String, customers: [Int], snapshots: [LegacySnapshot], tableFlaws: [LegacyLogicFlaw] = []
  ) {
    self.id = id
    self.customers = customers
    self.snapshots = snapshots
    self.tableFlaws = tableFlaws
  }
}
