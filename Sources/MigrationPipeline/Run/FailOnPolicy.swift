import Entitlements
import Foundation

/// When a run counts as failed (exit 1): `--fail-on` names categories, impacts
/// (`loses_access`, `gains_access`, `changes_terms`, `needs_attention`) or `any` (every
/// category but `match`); `--fail-threshold` is how many such accounts are tolerated.
public struct FailOnPolicy: Hashable, Sendable, CustomStringConvertible {
  /// The categories that count.
  public var categories: Set<DiscrepancyCategory>
  /// How many accounts in those categories are tolerated.
  public var threshold: Int
  /// The list as the user wrote it.
  public var expression: String

  /// Parses a `--fail-on` list.
  ///
  /// - Parameters:
  ///   - list: comma-separated categories, impacts or `any`.
  ///   - threshold: how many accounts are tolerated.
  /// - Throws: ``Failure`` naming an unknown item and the known ones.
  public init(parsing list: String, threshold: Int = 0) throws {
    var categories = Set<DiscrepancyCategory>()
    for item in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
    where !item.isEmpty {
      if item == "any" {
        categories.formUnion(DiscrepancyCategory.allCases.filter { $0 != .match })
      } else if let category = DiscrepancyCategory(rawValue: item) {
        categories.insert(category)
      } else if let impact = DiscrepancyCategory.Impact(rawValue: item) {
        categories.formUnion(DiscrepancyCategory.allCases.filter { $0.impact == impact })
      } else {
        let known =
          DiscrepancyCategory.allCases.map(\.rawValue)
          + DiscrepancyCategory.Impact.allCases.map(\.rawValue) + ["any"]
        throw Failure(
          description:
            "'\(item)' is not a category or impact; use one of: \(known.joined(separator: ", "))")
      }
    }
    guard !categories.isEmpty else {
      throw Failure(description: "--fail-on needs at least one category")
    }
    self.categories = categories
    self.threshold = threshold
    self.expression = list + (threshold > 0 ? " > \(threshold)" : "")
  }

  /// Why a `--fail-on` list was refused.
  public struct Failure: Error, CustomStringConvertible {
    /// The explanation.
    public var description: String
  }

  /// How many of the comparisons count against the policy.
  ///
  /// - Parameter comparisons: the run's comparisons.
  /// - Returns: the count.
  public func count(in comparisons: [AccountComparison]) -> Int {
    comparisons.filter { categories.contains($0.category) }.count
  }

  /// Whether the comparisons cross the threshold.
  ///
  /// - Parameter comparisons: the run's comparisons.
  public func isCrossed(by comparisons: [AccountComparison]) -> Bool {
    count(in: comparisons) > threshold
  }

  /// `refund_missed,stale_expired > 3`.
  public var description: String { expression }
}
