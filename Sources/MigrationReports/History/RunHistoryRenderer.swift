import Entitlements
import JSON
import Terminal

/// Renders a store's runs: a table for people, JSON for scripts (`receipt-migrate runs`).
public enum RunHistoryRenderer {
  /// The runs as an aligned table, newest first.
  ///
  /// - Parameter entries: the runs.
  /// - Returns: the text, ending with a newline.
  public static func text(_ entries: [RunHistoryEntry]) -> String {
    guard !entries.isEmpty else { return "No runs yet: run receipt-migrate migrate first.\n" }
    var table = TextTable(columns: [
      .init("Run"), .init("Command"), .init("Started"), .init("As of"), .init("Status"),
      .init("Accounts", alignment: .right), .init("Lose", alignment: .right),
      .init("Gain", alignment: .right), .init("Terms", alignment: .right),
      .init("Attention", alignment: .right), .init("New", alignment: .right),
      .init("Resolved", alignment: .right), .init("Lost notif.", alignment: .right),
      .init("Exit", alignment: .right),
    ])
    for entry in entries {
      func impact(_ impact: DiscrepancyCategory.Impact) -> String {
        entry.status == .interrupted ? "" : ReportFormatting.count(entry.impactCounts[impact] ?? 0)
      }
      table.addRow([
        TerminalText.safe(entry.runId), entry.command ?? "?",
        String(entry.startedAt.iso8601.prefix(19)), String(entry.asOf.iso8601.prefix(19)),
        entry.status.rawValue,
        entry.status == .interrupted ? "" : ReportFormatting.count(entry.accounts),
        impact(.losesAccess), impact(.gainsAccess), impact(.changesTerms),
        impact(.needsAttention),
        entry.since == nil ? "" : ReportFormatting.count(entry.newFindings),
        entry.since == nil ? "" : ReportFormatting.count(entry.resolvedFindings),
        ReportFormatting.count(entry.lostNotifications),
        entry.exitCode.map(String.init) ?? "",
      ])
    }
    return table.rendered()
      + "\nStatus: complete = report committed and alerts handed over (a baseline for the next "
      + "run); compared = compare without a report (report --run ID completes it); "
      + "interrupted = stopped before it ended, or still running (the next run alerts on its "
      + "changes again). New and Resolved count both the primary and the team-table side.\n"
  }

  /// The runs as a JSON document: `{"runs": [...]}`, newest first.
  ///
  /// - Parameter entries: the runs.
  /// - Returns: the bytes, ending with a newline.
  public static func json(_ entries: [RunHistoryEntry]) -> [UInt8] {
    var writer = JSONWriter(style: .pretty)
    writer.beginObject()
    writer.field("schema_version", ReportWriter.schemaVersion)
    writer.key("runs")
    writer.beginArray()
    for entry in entries { write(entry, into: &writer) }
    writer.endArray()
    writer.endObject()
    return writer.bytes + [0x0A]
  }

  /// One run as a JSON object (also the shape of each run in an audit's trend).
  static func write(_ entry: RunHistoryEntry, into writer: inout JSONWriter) {
    writer.beginObject()
    writer.field("run_id", entry.runId)
    writer.field("command", entry.command)
    writer.field("started_at", entry.startedAt.iso8601)
    writer.field("as_of", entry.asOf.iso8601)
    writer.field("status", entry.status.rawValue)
    writer.field("accounts", entry.accounts)
    func impacts(_ name: String, _ counts: [DiscrepancyCategory.Impact: Int]?) {
      writer.key(name)
      guard let counts else { return writer.null() }
      writer.beginObject()
      for impact in DiscrepancyCategory.Impact.allCases {
        writer.field(impact.rawValue, counts[impact] ?? 0)
      }
      writer.endObject()
    }
    impacts("by_impact", entry.status == .interrupted ? nil : entry.impactCounts)
    impacts("table_by_impact", entry.tableImpactCounts)
    writer.key("since")
    if let since = entry.since {
      writer.beginObject()
      writer.field("run_id", since.previousRunId)
      writer.field("new_findings", entry.newFindings)
      writer.field("resolved", entry.resolvedFindings)
      writer.field("primary_compared", since.primary != nil)
      writer.field("table_compared", since.table != nil)
      writer.endObject()
    } else {
      writer.null()
    }
    writer.field("lost_notifications", entry.lostNotifications)
    writer.field("exit_code", entry.exitCode.map(Int.init))
    writer.field("report_directory", entry.reportDirectory)
    writer.endObject()
  }
}
