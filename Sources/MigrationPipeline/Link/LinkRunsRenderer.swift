import Chronology
import JSON
import MigrationStore
import Terminal

/// Renders `receipt-migrate link --list`: every link run of a store with its writes counted by
/// state.
public enum LinkRunsRenderer {
  /// The runs as text for people.
  ///
  /// - Parameters:
  ///   - tallies: the runs, most recent first.
  ///   - storePath: the store, for the heading.
  /// - Returns: the text, ending with a newline.
  public static func text(_ tallies: [LinkRunTally], storePath: String) -> String {
    guard !tallies.isEmpty else {
      return "No link runs in \(storePath): link --apply journals one.\n"
    }
    var table = TextTable(columns: [
      .init("Run"), .init("Kind"), .init("Started"), .init("State"),
      .init("Writes", alignment: .right), .init("Confirmed", alignment: .right),
      .init("Skipped", alignment: .right), .init("Failed", alignment: .right),
      .init("Undone", alignment: .right), .init("Pending", alignment: .right),
    ])
    for tally in tallies {
      let run = tally.run
      table.addRow([
        run.id, run.kind == .undo ? "undo of \(run.undoesRunId ?? "?")" : "apply",
        seconds(run.startedMilliseconds),
        run.finishedMilliseconds == nil ? "open (rerun to finish)" : "finished",
        count(tally.writes), count(tally.states[.confirmed]), count(tally.states[.skipped]),
        count(tally.states[.failed]), count(tally.states[.undone]),
        count((tally.states[.planned] ?? 0) + (tally.states[.sent] ?? 0)),
      ])
    }
    var lines = ["Link runs in \(storePath), most recent first:", "", table.rendered(), ""]
    for tally in tallies {
      var line =
        tally.run.kind == .undo
        ? "\(tally.run.id): undid \(tally.run.undoesRunId ?? "?")"
        : "\(tally.run.id): tokens from \(tally.run.mapping)"
      if let appStore = tally.run.appStore { line += "; wrote to \(appStore)" }
      if !tally.skipped.isEmpty {
        line +=
          "; skipped: "
          + tally.skipped.sorted {
            LinkSummaryRenderer.order($0.key) < LinkSummaryRenderer.order($1.key)
          }
          .map { "\(count($0.value)) \($0.key)" }.joined(separator: ", ")
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The runs as one JSON object: `runs`, most recent first, each with its counts by state
  /// and its skipped writes by reason.
  ///
  /// - Parameter tallies: the runs.
  /// - Returns: the JSON text, ending with a newline.
  public static func json(_ tallies: [LinkRunTally]) -> String {
    var writer = JSONWriter(style: .pretty)
    writer.beginObject()
    writer.key("runs")
    writer.beginArray()
    for tally in tallies {
      let run = tally.run
      writer.beginObject()
      writer.field("run_id", run.id)
      writer.field("kind", run.kind.rawValue)
      writer.field("undoes_run_id", run.undoesRunId)
      writer.field("mapping", run.mapping)
      writer.field("app_store", run.appStore)
      writer.field(
        "started", Timestamp(millisecondsSince1970: run.startedMilliseconds).iso8601)
      writer.field(
        "finished",
        run.finishedMilliseconds.map { Timestamp(millisecondsSince1970: $0).iso8601 })
      writer.field("writes", tally.writes)
      writer.key("states")
      writer.beginObject()
      for state in LinkWriteRow.State.allCases {
        writer.field(state.rawValue, tally.states[state] ?? 0)
      }
      writer.endObject()
      writer.key("skipped_by_reason")
      writer.beginObject()
      for (reason, count) in tally.skipped.sorted(by: { $0.key < $1.key }) {
        writer.field(reason, count)
      }
      writer.endObject()
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
    return writer.string + "\n"
  }

  private static func count(_ value: Int?) -> String { NumberFormatting.grouped(value ?? 0) }

  /// An instant to the second: a listing is read, not compared.
  private static func seconds(_ milliseconds: Int64) -> String {
    Timestamp(millisecondsSince1970: milliseconds - milliseconds % 1000).iso8601
  }
}
