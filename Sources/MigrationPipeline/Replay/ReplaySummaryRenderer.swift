import Chronology
import MigrationReports
import MigrationStore
import Terminal

/// Renders what `receipt-migrate notifications replay` prints: the plan of a dry run, or what
/// the destination answered to each notification sent.
///
/// Everything from the store or the server (account ids, the start of an answer's body, a
/// failure's reason) passes through ``TerminalText/safe(_:)``: a server's answer cannot drive
/// the terminal.
public enum ReplaySummaryRenderer {
  /// How many notifications are listed one by one.
  public static let listed = 50

  /// A dry run's plan: every selected notification and what a replay would do with it.
  ///
  /// - Parameters:
  ///   - plan: the plan.
  ///   - selection: how the notifications were chosen, for the heading.
  /// - Returns: the text, ending with a newline.
  public static func text(plan: ReplayPlan, selection: ReplayOptions.Selection) -> String {
    var lines = [
      "Replay plan (dry run, nothing sent) to \(t(plan.destination.description)): "
        + "\(count(plan.entries.count)) lost notification(s) \(describe(selection))."
    ]
    lines.append("")
    if !plan.entries.isEmpty {
      var table = TextTable(columns: [
        .init("Signed"), .init("Type"), .init("Notification"), .init("Accounts"),
        .init("What a replay does"),
      ])
      for entry in plan.entries.prefix(listed) {
        table.addRow(row(entry.notification) + [standing(entry.standing)])
      }
      lines.append(table.rendered())
      if plan.entries.count > listed {
        lines.append("… and \(count(plan.entries.count - listed)) more")
      }
      lines.append("")
    }
    lines.append(
      "To send: \(count(plan.toSend.count)); accepted before: \(count(plan.alreadyAccepted)); "
        + "in doubt, held back: \(count(plan.heldInDoubt.count))."
        + (plan.toSend.isEmpty ? "" : " Send them without --dry-run."))
    return lines.joined(separator: "\n") + "\n"
  }

  /// What a replay did.
  ///
  /// - Parameters:
  ///   - summary: the summary.
  ///   - selection: how the notifications were chosen, for the heading.
  /// - Returns: the text, ending with a newline.
  public static func text(_ summary: ReplaySummary, selection: ReplayOptions.Selection) -> String {
    let plan = summary.plan
    var lines = [
      "Replay to \(t(plan.destination.description)): \(count(plan.entries.count)) lost "
        + "notification(s) \(describe(selection))."
    ]
    if !summary.sent.isEmpty {
      lines.append("")
      var table = TextTable(columns: [
        .init("Signed"), .init("Type"), .init("Notification"), .init("Accounts"),
        .init("Answer"),
      ])
      for (notification, result) in summary.sent.prefix(listed) {
        table.addRow(row(notification) + [answer(result)])
      }
      lines.append(table.rendered())
      if summary.sent.count > listed {
        lines.append("… and \(count(summary.sent.count - listed)) more")
      }
    }
    for entry in plan.heldInDoubt.prefix(listed) {
      lines.append(
        "In doubt, not sent again: \(t(entry.notification.uuid)) (\(standing(entry.standing)))")
    }
    lines.append("")
    var done =
      "Sent: \(count(summary.sent.count)); accepted: \(count(summary.accepted)); "
      + "failed: \(count(summary.failed)); in doubt: \(count(summary.inDoubt)); accepted "
      + "before: \(count(plan.alreadyAccepted))."
    if summary.sent.count < plan.toSend.count {
      done += " Stopped before \(count(plan.toSend.count - summary.sent.count)) more."
    }
    lines.append(done)
    if summary.failed > 0 {
      lines.append("Run the same command again to send the failed ones again.")
    }
    if summary.inDoubt > 0 {
      lines.append(
        "A notification in doubt may have reached the server; check it there, then add "
          + "--resend-unconfirmed to send it again.")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func row(_ notification: LostNotification) -> [String] {
    [
      notification.signedDate?.iso8601 ?? "-", t(notification.kind), t(notification.uuid),
      notification.accounts.isEmpty ? "-" : t(notification.accounts.joined(separator: " ")),
    ]
  }

  private static func standing(_ standing: ReplayPlan.Standing) -> String {
    switch standing {
    case .new: return "send"
    case .failedBefore(let attempt): return "send again (\(failure(attempt)))"
    case .resentInDoubt(let attempt):
      return "send again (in doubt since \(instant(attempt.sentMilliseconds)))"
    case .accepted(let attempt):
      return
        "nothing: accepted \(instant(attempt.answeredMilliseconds ?? attempt.sentMilliseconds))"
        + (attempt.httpStatus.map { " (HTTP \($0))" } ?? "")
    case .inDoubt(let attempt):
      return "hold back: in doubt since \(instant(attempt.sentMilliseconds))"
        + (attempt.error.map { " (\(t($0)))" } ?? "")
    }
  }

  private static func failure(_ attempt: NotificationReplayRow) -> String {
    if let status = attempt.httpStatus {
      return "HTTP \(status) on \(instant(attempt.sentMilliseconds))"
    }
    return "not delivered on \(instant(attempt.sentMilliseconds))"
      + (attempt.error.map { ": \(t($0))" } ?? "")
  }

  private static func answer(_ result: ReplaySummary.Result) -> String {
    switch result {
    case .accepted(let status): return "accepted (HTTP \(status))"
    case .refused(let status, let excerpt):
      return "refused: HTTP \(status)"
        + (excerpt.isEmpty ? "" : " \(t(String(excerpt.prefix(60))))")
    case .notDelivered(let reason): return "not delivered: \(t(reason))"
    case .inDoubt(let reason): return "in doubt: \(t(reason))"
    }
  }

  private static func describe(_ selection: ReplayOptions.Selection) -> String {
    switch selection {
    case .all: return "in the store"
    case .run(let runId): return "reported by run \(t(runId))"
    case .since(let instant): return "signed since \(instant.iso8601)"
    }
  }

  private static func instant(_ milliseconds: Int64) -> String {
    Timestamp(millisecondsSince1970: milliseconds).iso8601
  }

  private static func count(_ value: Int) -> String { NumberFormatting.grouped(value) }

  private static func t(_ text: String) -> String { TerminalText.safe(text) }
}
