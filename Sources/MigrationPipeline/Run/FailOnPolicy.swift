import Entitlements
import Foundation

/// When a run counts as failed (exit 1). `--fail-on` is a comma-separated list of selectors:
///
/// - a category (`refund_missed`), an impact (`loses_access`, `gains_access`, `changes_terms`,
///   `needs_attention`) or `any` (every category but `match`): accounts whose primary category
///   (the old logic against the App Store) is one of them;
/// - `table:` and one of those: accounts whose team-table category is one of them;
/// - `new:` before either: only accounts that entered those categories since the previous run
///   (their category then was none of them, or they were not in it) — with no earlier run,
///   every account is new;
/// - `lost_notifications`: each notification the run reports as lost (its last delivery attempt
///   failed; one Apple may still retry does not count) counts one.
///
/// An account counts once however many selectors it matches; `--fail-threshold` is how many
/// counted accounts are tolerated.
public struct FailOnPolicy: Hashable, Sendable, CustomStringConvertible {
  /// Which category of an account a selector reads.
  public enum Side: String, Hashable, Sendable {
    /// The primary category.
    case primary
    /// The team table's category.
    case table
  }

  /// One item of the list.
  public struct Selector: Hashable, Sendable {
    /// Which category it reads.
    public var side: Side
    /// Whether only accounts that entered the categories since the previous run count.
    public var onlyNew: Bool
    /// The categories that count.
    public var categories: Set<DiscrepancyCategory>
    /// The selector as the user wrote it, such as `new:table:loses_access`.
    public var text: String
    /// The categories as the user named them: `any`, an impact or a category.
    public var name: String = ""

    /// What the selector counts, in words that name its side: `new table findings`,
    /// `primary loses_access`, `new primary refund_missed`.
    public var meaning: String {
      let side = self.side == .primary ? "primary" : "table"
      let what = name == "any" ? "findings" : name
      return (onlyNew ? "new " : "") + side + " " + what
    }
  }

  /// An account's categories in the previous run.
  public struct Previous: Hashable, Sendable {
    /// The primary category.
    public var category: DiscrepancyCategory?
    /// The team table's category.
    public var tableCategory: DiscrepancyCategory?

    /// Creates previous categories.
    public init(category: DiscrepancyCategory?, tableCategory: DiscrepancyCategory?) {
      self.category = category
      self.tableCategory = tableCategory
    }
  }

  /// The selectors.
  public var selectors: [Selector]
  /// Whether the notifications a run reports as lost count too (`lost_notifications`).
  public var countsLostNotifications = false
  /// How many accounts counted are tolerated.
  public var threshold: Int
  /// The list as the user wrote it.
  public var expression: String

  /// Parses a `--fail-on` list.
  ///
  /// - Parameters:
  ///   - list: comma-separated selectors.
  ///   - threshold: how many accounts are tolerated.
  /// - Throws: ``Failure`` naming an unknown item and the known ones.
  public init(parsing list: String, threshold: Int = 0) throws {
    var selectors: [Selector] = []
    var countsLost = false
    for item in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
    where !item.isEmpty {
      if item == "lost_notifications" {
        countsLost = true
        continue
      }
      var rest = Substring(item)
      var onlyNew = false
      var side = Side.primary
      if rest.hasPrefix("new:") {
        onlyNew = true
        rest = rest.dropFirst(4)
      }
      if rest.hasPrefix("table:") {
        side = .table
        rest = rest.dropFirst(6)
      }
      guard let categories = Self.categories(named: String(rest)) else {
        let known =
          DiscrepancyCategory.allCases.map(\.rawValue)
          + DiscrepancyCategory.Impact.allCases.map(\.rawValue) + ["any", "lost_notifications"]
        throw Failure(
          description:
            "'\(item)' is not a category or impact; use one of: \(known.joined(separator: ", ")), "
            + "each optionally after table: (the team table's category) and new: (only accounts "
            + "that entered it since the previous run)")
      }
      selectors.append(
        Selector(
          side: side, onlyNew: onlyNew, categories: categories, text: String(item),
          name: String(rest)))
    }
    guard !selectors.isEmpty || countsLost else {
      throw Failure(description: "--fail-on needs at least one category")
    }
    self.selectors = selectors
    self.countsLostNotifications = countsLost
    self.threshold = threshold
    self.expression = list + (threshold > 0 ? " > \(threshold)" : "")
  }

  private static func categories(named name: String) -> Set<DiscrepancyCategory>? {
    if name == "any" { return Set(DiscrepancyCategory.allCases.filter { $0 != .match }) }
    if let category = DiscrepancyCategory(rawValue: name) { return [category] }
    if let impact = DiscrepancyCategory.Impact(rawValue: name) {
      return Set(DiscrepancyCategory.allCases.filter { $0.impact == impact })
    }
    return nil
  }

  /// Why a `--fail-on` list was refused.
  public struct Failure: Error, CustomStringConvertible {
    /// The explanation.
    public var description: String
  }

  /// How many of the comparisons count against the policy.
  ///
  /// - Parameters:
  ///   - comparisons: the run's comparisons.
  ///   - previous: every account's categories in the previous run, or `nil` when there was no
  ///     previous run (then every account is new).
  /// - Returns: the count.
  public func count(in comparisons: [AccountComparison], previous: [AccountKey: Previous]? = nil)
    -> Int
  {
    var tally = FailOnTally(policy: self)
    for comparison in comparisons { tally.add(comparison) }
    return tally.count(previous: previous)
  }

  /// Whether the comparisons cross the threshold.
  ///
  /// - Parameters:
  ///   - comparisons: the run's comparisons.
  ///   - previous: see ``count(in:previous:)``.
  public func isCrossed(
    by comparisons: [AccountComparison], previous: [AccountKey: Previous]? = nil
  ) -> Bool {
    count(in: comparisons, previous: previous) > threshold
  }

  /// Whether a selector takes an account, given the account's categories in the previous run.
  func matches(
    _ selector: Selector, _ comparison: AccountComparison, previous: Previous?
  ) -> Bool {
    let now = selector.side == .primary ? comparison.category : comparison.tableCategory
    guard let now, selector.categories.contains(now) else {
      // A test account or a shared Apple Account keeps its account-level category; its keys'
      // findings count too (not for new:, which compares account categories across runs).
      return selector.side == .primary && !selector.onlyNew
        && Self.accountLevelCategories.contains(comparison.category)
        && comparison.keys.contains { selector.categories.contains($0.category) }
    }
    guard selector.onlyNew else { return true }
    return Self.isNew(
      to: selector, before: selector.side == .primary ? previous?.category : previous?.tableCategory
    )
  }

  /// Whether an account a `new:` selector's categories hold now was outside them before (or
  /// did not exist then).
  static func isNew(to selector: Selector, before: DiscrepancyCategory?) -> Bool {
    before.map { !selector.categories.contains($0) } ?? true
  }

  /// Account-level categories whose keys are compared and counted as well.
  static let accountLevelCategories: Set<DiscrepancyCategory> = [.sandboxOnly, .sharedAppleAccount]

  /// `refund_missed,stale_expired > 3`.
  public var description: String { expression }

  /// What the policy counts, naming each selector's side (primary: the old logic against the
  /// App Store; table: the team's table against it) and whether only new findings count:
  /// `new table findings or primary loses_access`. Reports print it beside the count, so an
  /// alarm says which side it read.
  public var meaning: String {
    selectors.map(\.meaning).joined(separator: " or ")
  }
}
