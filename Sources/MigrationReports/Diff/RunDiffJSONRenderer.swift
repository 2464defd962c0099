import JSON

/// `receipt-migrate diff --json`: the whole diff for machines, keys in a fixed order.
public enum RunDiffJSONRenderer {
  /// The version of this document's shape.
  public static let schemaVersion = 1

  /// The document, indented, ending with a line break.
  ///
  /// - Parameter diff: the diff.
  public static func render(_ diff: RunDiff) -> [UInt8] {
    var writer = JSONWriter(style: .pretty)
    writer.beginObject()
    writer.field("schema_version", schemaVersion)
    side("before", diff.before, into: &writer)
    side("after", diff.after, into: &writer)
    writer.key("input_differences")
    writer.beginArray()
    for sentence in diff.inputDifferences { writer.value(sentence) }
    writer.endArray()
    writer.key("accounts")
    writer.beginObject()
    writer.field("before", diff.accountsBefore)
    writer.field("after", diff.accountsAfter)
    ids("only_before", diff.onlyBefore, into: &writer)
    ids("only_after", diff.onlyAfter, into: &writer)
    writer.endObject()
    counts("primary", diff.primary, into: &writer)
    counts("table", diff.table, into: &writer)
    writer.key("changes")
    writer.beginArray()
    for change in diff.changes {
      writer.beginObject()
      writer.field("account_id", change.accountId)
      move("primary", change.primary, into: &writer)
      move("table", change.table, into: &writer)
      ids("evidence_removed", change.evidenceRemoved, into: &writer)
      ids("evidence_added", change.evidenceAdded, into: &writer)
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
    return writer.bytes + [0x0A]
  }

  private static func side(_ name: String, _ facts: DiffSideFacts, into writer: inout JSONWriter) {
    writer.key(name)
    writer.beginObject()
    writer.field("source", facts.source)
    writer.field("run_id", facts.runId)
    writer.field("tool_version", facts.toolVersion)
    writer.field("as_of", facts.asOf)
    writer.field("compared_table", facts.comparedTable)
    writer.field("redacted", facts.redacted)
    writer.key("inputs")
    writer.beginObject()
    for name in facts.inputs.keys.sorted() { writer.field(name, facts.inputs[name]) }
    writer.endObject()
    writer.endObject()
  }

  private static func ids(_ name: String, _ values: [String], into writer: inout JSONWriter) {
    writer.key(name)
    writer.beginArray()
    for value in values { writer.value(value) }
    writer.endArray()
  }

  private static func counts(_ name: String, _ counts: ChangeCounts?, into writer: inout JSONWriter)
  {
    writer.key(name)
    guard let counts else { return writer.null() }
    writer.beginObject()
    for kind in ChangeKind.allCases { writer.field(kind.rawValue, counts[kind]) }
    writer.endObject()
  }

  private static func move(_ name: String, _ move: CategoryChange?, into writer: inout JSONWriter) {
    writer.key(name)
    guard let move else { return writer.null() }
    writer.beginObject()
    writer.field("from", move.from)
    writer.field("to", move.to)
    writer.field("kind", move.kind.rawValue)
    writer.endObject()
  }
}
