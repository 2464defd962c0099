import Entitlements
import JSON
import MigrationReports

/// What an alert says about a run: the few facts a person woken by it needs first, as text (for
/// `--quiet`'s output, which cron mails) and as JSON (for `--notify-command`'s standard input
/// and `--webhook`'s body, with a Slack-compatible `text` field).
///
/// It never carries a secret: no credentials, no account ids, no signed payloads — counts, the
/// run's id, the reasons and where the report is.
public struct RunHeadline: Sendable {
  /// The run.
  public var summary: RunSummary
  /// Accounts by impact of their primary category.
  public var impactCounts: [DiscrepancyCategory.Impact: Int]
  /// Accounts in `stale_app_store_data`.
  public var staleAccounts: Int
  /// Why the run is incomplete, when it exits 4.
  public var incompleteReasons: [String]
  /// Where the report was written, if it was.
  public var reportDirectory: String?
  /// The store.
  public var storePath: String

  /// The headline of a recorded run.
  ///
  /// - Parameters:
  ///   - run: the run.
  ///   - reportDirectory: where its report was written, if it was.
  ///   - storePath: the store.
  public init(run: RecordedRun, reportDirectory: String?, storePath: String) {
    summary = run.summary
    impactCounts = run.statistics.impactCounts
    staleAccounts = run.staleAccounts
    incompleteReasons = run.incompleteReasons
    self.reportDirectory = reportDirectory
    self.storePath = storePath
  }

  /// The exit code the run asks for.
  public var exitCode: Int32 { summary.exitCode ?? 0 }

  /// `threshold_crossed`, `incomplete` or `ok`.
  public var outcome: String {
    switch exitCode {
    case 1: return "threshold_crossed"
    case 4: return "incomplete"
    default: return "ok"
    }
  }

  /// One line: what happened and where to look.
  public var oneLine: String {
    let command = summary.command ?? "run"
    var text = "receipt-migrate \(command) \(summary.runId): "
    switch exitCode {
    case 1: text += "--fail-on \(summary.failOn?.expression ?? "") crossed (exit 1)"
    case 4: text += "incomplete (exit 4): " + incompleteReasons.joined(separator: "; ")
    default: text += "done (exit 0)"
    }
    if let reportDirectory { text += "; report: \(reportDirectory)/report.html" }
    return text
  }

  /// A few lines: the one line, the accounts by impact, what changed, lost notifications.
  public var text: String {
    var lines = [oneLine]
    let impacts = DiscrepancyCategory.Impact.allCases.filter { $0 != .none }.map {
      "\(Self.title($0)) \(impactCounts[$0] ?? 0)"
    }
    lines.append(
      "  \(summary.inputs.accounts) account(s) as of \(summary.asOf.iso8601): "
        + impacts.joined(separator: ", "))
    if let since = summary.since {
      var parts: [String] = []
      if let primary = since.primary {
        parts.append("\(primary[.newFinding]) new finding(s), \(primary[.resolved]) resolved")
      }
      if let table = since.table {
        parts.append(
          "your table: \(table[.newFinding]) new finding(s), \(table[.resolved]) resolved")
      }
      lines.append(
        "  since run \(since.previousRunId): "
          + (parts.isEmpty ? "nothing compared" : parts.joined(separator: "; ")))
    }
    if summary.lostNotifications > 0 {
      lines.append("  \(summary.lostNotifications) notification(s) never reached your server")
    }
    return lines.map(TerminalText.safe).joined(separator: "\n") + "\n"
  }

  /// The headline as JSON.
  public var json: [UInt8] {
    var writer = JSONWriter(style: .pretty)
    writer.beginObject()
    writer.field("text", oneLine)
    writer.field("run_id", summary.runId)
    writer.field("command", summary.command)
    writer.field("exit_code", Int(exitCode))
    writer.field("outcome", outcome)
    writer.key("reasons")
    writer.beginArray()
    for reason in exitCode == 4 ? incompleteReasons : [] { writer.value(reason) }
    writer.endArray()
    writer.field("fail_on", summary.failOn?.expression)
    writer.field("as_of", summary.asOf.iso8601)
    writer.field("accounts", summary.inputs.accounts)
    writer.key("by_impact")
    writer.beginObject()
    for impact in DiscrepancyCategory.Impact.allCases {
      writer.field(impact.rawValue, impactCounts[impact] ?? 0)
    }
    writer.endObject()
    writer.key("since")
    if let since = summary.since {
      writer.beginObject()
      writer.field("run_id", since.previousRunId)
      writer.field("new_findings", since.primary?[.newFinding])
      writer.field("resolved", since.primary?[.resolved])
      writer.field("table_new_findings", since.table?[.newFinding])
      writer.field("table_resolved", since.table?[.resolved])
      writer.endObject()
    } else {
      writer.null()
    }
    writer.field("lost_notifications", summary.lostNotifications)
    writer.field("stale_accounts", staleAccounts)
    writer.field("customers_still_due", summary.refresh?.stillDue)
    writer.field("report", reportDirectory.map { $0 + "/report.html" })
    writer.field("store", storePath)
    writer.field("app_store", summary.appStore.description)
    writer.field("tool_version", summary.toolVersion)
    writer.endObject()
    return writer.bytes + [0x0A]
  }

  private static func title(_ impact: DiscrepancyCategory.Impact) -> String {
    switch impact {
    case .losesAccess: return "lose access"
    case .gainsAccess: return "gain access"
    case .changesTerms: return "change terms"
    case .needsAttention: return "need attention"
    case .none: return "match"
    }
  }
}
