/// One side of a diff: where its classifications come from and what they were computed with.
public struct DiffSideFacts: Hashable, Sendable {
  /// Where the side was read: the store's path, or the report folder's.
  public var source: String
  /// The run's id.
  public var runId: String
  /// The version of receipt-migrate that made the run.
  public var toolVersion: String
  /// The run's comparison instant, as ISO 8601 text.
  public var asOf: String
  /// The inputs the run was made with that decide its categories (`legacy`, `catalog`,
  /// `current-entitlements`, `tokens`, `derive-tokens`), by name; output places are left out.
  public var inputs: [String: String]
  /// Whether the run compared a team table.
  public var comparedTable: Bool
  /// Whether the side's account ids are pseudonyms (a redacted report).
  public var redacted: Bool

  /// Creates facts.
  public init(
    source: String, runId: String, toolVersion: String, asOf: String, inputs: [String: String],
    comparedTable: Bool, redacted: Bool
  ) {
    self.source = source
    self.runId = runId
    self.toolVersion = toolVersion
    self.asOf = asOf
    self.inputs = inputs
    self.comparedTable = comparedTable
    self.redacted = redacted
  }

  /// The input names that can change a run's categories; the rest (report folders, alert
  /// destinations) cannot.
  public static let classifyingInputs: Set<String> = [
    "legacy", "catalog", "current-entitlements", "tokens", "derive-tokens",
  ]

  /// How `other`'s inputs differ from these, one sentence each; empty when they are alike.
  ///
  /// - Parameter other: the later side.
  public func differences(to other: DiffSideFacts) -> [String] {
    var sentences: [String] = []
    if asOf != other.asOf {
      sentences.append("the comparison instants differ: \(asOf) and \(other.asOf)")
    }
    if toolVersion != other.toolVersion {
      sentences.append(
        "the runs were made by different versions of receipt-migrate: \(toolVersion) and "
          + "\(other.toolVersion)")
    }
    if redacted != other.redacted {
      sentences.append(
        "one side is redacted and the other is not: their account ids cannot be matched")
    }
    if comparedTable != other.comparedTable {
      sentences.append(
        "only the \(comparedTable ? "earlier" : "later") run compared a team table: table "
          + "categories are not compared")
    }
    for name in Set(inputs.keys).union(other.inputs.keys).sorted()
    where inputs[name] != other.inputs[name] {
      sentences.append(
        "--\(name) differs: \(inputs[name] ?? "not given") and \(other.inputs[name] ?? "not given")"
      )
    }
    return sentences
  }
}
