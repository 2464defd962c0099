import LegacyReceipts

/// Counts of entitlement keys by old status and new status at the comparison instant: the
/// transition matrix of a report. `nil` stands for "none": that side knows nothing of the key.
struct StatusTransitions: Hashable, Sendable {
  /// How a transition changes the customer's access.
  enum Kind: String {
    /// The same status on both sides.
    case same
    /// Entitled under the old logic, not under the new.
    case losesAccess = "lose"
    /// Entitled under the new logic, not under the old.
    case gainsAccess = "gain"
    /// Different labels, but access stays as it was.
    case relabelled = "relabel"
  }

  /// The rows and columns, entitled states first, then "none".
  static let states: [EntitlementStatus?] = [
    .active, .gracePeriod, .billingRetry, .expired, .revoked, nil,
  ]

  private var counts: [Int] = Array(repeating: 0, count: states.count * states.count)

  /// Counts one key.
  mutating func add(old: EntitlementStatus?, new: EntitlementStatus?) {
    counts[Self.index(old) * Self.states.count + Self.index(new)] += 1
  }

  /// The number of keys with this old and new status.
  func count(old: EntitlementStatus?, new: EntitlementStatus?) -> Int {
    counts[Self.index(old) * Self.states.count + Self.index(new)]
  }

  /// The largest cell, for shading.
  var maximum: Int { counts.max() ?? 0 }

  /// Every key counted.
  var total: Int { counts.reduce(0, +) }

  /// `active`, ..., `none`: the stable text `run.json` uses.
  static func label(_ status: EntitlementStatus?) -> String { status?.rawValue ?? "none" }

  /// `grace period`: the label for people, which may wrap.
  static func title(_ status: EntitlementStatus?) -> String {
    label(status).replacing("_", with: " ")
  }

  /// What a transition does to the customer's access.
  static func kind(old: EntitlementStatus?, new: EntitlementStatus?) -> Kind {
    if old == new { return .same }
    let oldEntitled = old?.isEntitled ?? false
    let newEntitled = new?.isEntitled ?? false
    if oldEntitled && !newEntitled { return .losesAccess }
    if newEntitled && !oldEntitled { return .gainsAccess }
    return .relabelled
  }

  private static func index(_ status: EntitlementStatus?) -> Int {
    states.firstIndex(of: status) ?? states.count - 1
  }
}
