import Entitlements
import JSON
import MigrationStore
import Terminal

/// Renders a ``LinkSummary``: what `receipt-migrate link` prints.
public enum LinkSummaryRenderer {
  /// How many writes are listed one by one in the text; the JSON lists all.
  public static let listedWrites = 50

  /// The summary as text for people.
  ///
  /// - Parameters:
  ///   - summary: the summary.
  ///   - findings: the audit's counts (a dry run or apply), by finding.
  /// - Returns: the text, ending with a newline.
  public static func text(_ summary: LinkSummary, findings: [TokenFinding: Int] = [:]) -> String {
    var lines: [String] = []
    switch (summary.kind, summary.isDryRun) {
    case (.undo, _):
      lines.append(
        "Undo of link run \(summary.undoesRunId ?? "?")"
          + (summary.runId.map { " (run \($0))" } ?? "") + ":")
    case (.apply, true):
      lines.append(
        "Link plan (dry run, nothing sent): tokens from \(summary.mapping), "
          + "\(count(summary.accounts)) account(s) audited.")
    case (.apply, false):
      lines.append(
        "Link run \(summary.runId ?? "-"): tokens from \(summary.mapping), "
          + "\(count(summary.accounts)) account(s) audited.")
    }
    if !findings.isEmpty {
      lines.append(
        "  Purchases: "
          + TokenFinding.allCases.compactMap { finding in
            findings[finding].map { "\(count($0)) \(label(finding))" }
          }.joined(separator: ", ") + ".")
    }
    let leaks = summary.writes.filter { $0.state != .refused && $0.oldToken != nil }
    if summary.kind == .apply, !leaks.isEmpty {
      lines.append(
        "  \(count(leaks.count)) purchase(s) carry a token that is not their account's "
          + "(an association leak when it is another account's): the write replaces it.")
    }
    lines.append("")
    if summary.writes.isEmpty {
      lines.append("Nothing to write: every purchase carries its account's token.")
    } else {
      var table = TextTable(columns: [
        .init("Account"), .init("Original transaction"), .init("Environment"), .init("Token now"),
        .init("Token written"), .init("State"),
      ])
      for write in summary.writes.prefix(listedWrites) {
        table.addRow([
          write.accountId, write.originalTransactionId, write.environment,
          write.oldToken ?? "none", write.newToken.isEmpty ? "-" : write.newToken,
          write.state.rawValue,
        ])
      }
      lines.append(table.rendered())
      if summary.writes.count > listedWrites {
        lines.append("… and \(count(summary.writes.count - listedWrites)) more (--json lists all)")
      }
    }
    for write in summary.refused {
      lines.append(
        "Refused, not sent: \(write.originalTransactionId) (\(write.accountId)): "
          + (write.answer ?? ""))
    }
    for write in summary.failed {
      lines.append(
        "Failed: \(write.originalTransactionId) (\(write.accountId)): \(write.answer ?? "")")
    }
    lines.append("")
    if summary.isDryRun {
      lines.append(
        summary.planned == 0
          ? "Planned: 0 writes."
          : "Planned: \(count(summary.planned)) write(s). Send them with --apply.")
    } else {
      var done = "Applied: \(count(summary.applied)) write(s) by this run"
      if summary.confirmedWithoutResending > 0 {
        done +=
          ", \(count(summary.confirmedWithoutResending)) found already set after an "
          + "interruption (not sent again)"
      }
      lines.append(done + "; still planned: \(count(summary.planned)).")
      if let runId = summary.runId, summary.kind == .apply {
        lines.append("Undo it with: receipt-migrate link --undo \(runId)")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The summary as one JSON object: `planned` (writes still needed, 0 when nothing is left),
  /// `applied` (accepted in this process), the run, and every write with its state.
  ///
  /// - Parameters:
  ///   - summary: the summary.
  ///   - findings: the audit's counts, by finding.
  /// - Returns: the JSON text, ending with a newline.
  public static func json(_ summary: LinkSummary, findings: [TokenFinding: Int] = [:]) -> String {
    var writer = JSONWriter(style: .pretty)
    writer.beginObject()
    writer.field("dry_run", summary.isDryRun)
    writer.field("kind", summary.kind.rawValue)
    writer.field("run_id", summary.runId)
    writer.field("undoes_run_id", summary.undoesRunId)
    writer.field("mapping", summary.mapping)
    writer.field("accounts", summary.accounts)
    writer.field("planned", summary.planned)
    writer.field("applied", summary.applied)
    writer.field("confirmed_without_resending", summary.confirmedWithoutResending)
    writer.field("refused", summary.refused.count)
    writer.field("failed", summary.failed.count)
    writer.key("purchases")
    writer.beginObject()
    for finding in TokenFinding.allCases {
      writer.field(finding.rawValue, findings[finding] ?? 0)
    }
    writer.endObject()
    writer.key("writes")
    writer.beginArray()
    for write in summary.writes {
      writer.beginObject()
      writer.field("account_id", write.accountId)
      writer.field("original_transaction_id", write.originalTransactionId)
      writer.field("environment", write.environment)
      writer.field("subscription", write.isSubscription)
      writer.field("old_token", write.oldToken)
      writer.field("new_token", write.newToken.isEmpty ? nil : write.newToken)
      writer.field("state", write.state.rawValue)
      writer.field("answer", write.answer)
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
    return writer.string + "\n"
  }

  /// How people read a finding.
  public static func label(_ finding: TokenFinding) -> String {
    switch finding {
    case .different: "different (another token; a leak when another account's)"
    case .missing: "missing a token"
    case .unmapped: "of accounts the mapping does not list"
    case .matches: "matching"
    case .notApplicable: "family-shared (not applicable)"
    }
  }

  private static func count(_ value: Int) -> String { NumberFormatting.grouped(value) }
}
