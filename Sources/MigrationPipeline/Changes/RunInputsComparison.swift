import MigrationReports

/// Whether two runs' classifications can be set side by side, and how their inputs differ.
///
/// The primary category depends on the catalogue (a non-renewing subscription without a
/// duration is `duration_unknown`, a product's kind decides how it is judged): two runs with
/// different catalogues may disagree about an account without anything having changed at the
/// App Store or in the legacy data, so their primary categories are not compared. The team
/// table's categories are compared only when both runs compared a table; a run that compared
/// none has no table category to have moved from. Whatever is not compared is never counted as
/// a new or resolved finding, and the differences are said in words.
public struct RunInputsComparison: Hashable, Sendable {
  /// Whether the primary categories of the two runs can be compared.
  public var primaryComparable: Bool
  /// Whether the team-table categories of the two runs can be compared.
  public var tableComparable: Bool
  /// How the inputs differ, one sentence each; empty when they are the same.
  public var differences: [String]

  /// Creates a comparison from its parts.
  ///
  /// - Parameters:
  ///   - primaryComparable: whether primary categories can be compared.
  ///   - tableComparable: whether team-table categories can be compared.
  ///   - differences: how the inputs differ.
  public init(primaryComparable: Bool, tableComparable: Bool, differences: [String] = []) {
    self.primaryComparable = primaryComparable
    self.tableComparable = tableComparable
    self.differences = differences
  }

  /// Compares the inputs of a run with those of the earlier run it is set beside.
  ///
  /// - Parameters:
  ///   - run: the later run's recipe.
  ///   - earlier: the earlier run's recipe.
  ///   - earlierId: the earlier run's id, for the sentences.
  public init(run: RunRecipe, earlier: RunRecipe, earlierId: String) {
    var differences: [String] = []
    primaryComparable = run.catalogText == earlier.catalogText
    if !primaryComparable {
      differences.append(
        "the catalogue differs (\(Self.name(earlier.catalogFile, given: earlier.catalogText != nil)) "
          + "in run \(earlierId), \(Self.name(run.catalogFile, given: run.catalogText != nil)) now), "
          + "so primary categories are not compared")
    }
    switch (earlier.teamTableFile, run.teamTableFile) {
    case (nil, nil):
      tableComparable = false
    case (nil, let now?):
      tableComparable = false
      differences.append(
        "run \(earlierId) compared no team table, so \(now)'s categories are not compared")
    case (let before?, nil):
      tableComparable = false
      differences.append(
        "run \(earlierId) compared the team table \(before); this run compares none")
    case (let before?, let now?):
      tableComparable = true
      let beforePath = earlier.teamTablePath ?? before
      let nowPath = run.teamTablePath ?? now
      if earlier.teamTablePath != nil, run.teamTablePath != nil, beforePath != nowPath {
        differences.append(
          "the team table is another file (\(beforePath) in run \(earlierId), \(nowPath) now)")
      }
    }
    self.differences = differences
  }

  private static func name(_ file: String?, given: Bool) -> String {
    given ? (file ?? "a catalogue") : "no catalogue"
  }
}
