import AppStoreServerAPI
import Entitlements
import JSON
import MigrationStore
import Terminal

/// Renders a ``LinkSummary``: what `receipt-migrate link` prints.
public enum LinkSummaryRenderer {
  /// How many writes (and how many individually skipped or failed ones) the text lists one by
  /// one; the JSON lists all.
  public static let listedWrites = 50

  /// The reasons decided when the plan is made: counted, not listed one by one.
  static let planReasons: Set<String> = [
    LinkSkipReason.familyShared, .assigned, .notOriginal, .consumable, .revoked, .lapsed,
  ].reduce(into: []) { $0.insert($1.rawValue) }

  /// The summary as text for people.
  ///
  /// - Parameters:
  ///   - summary: the summary.
  ///   - missingAppStore: for a dry run without a configured App Store, what `--apply` needs.
  /// - Returns: the text, ending with a newline.
  public static func text(_ summary: LinkSummary, missingAppStore: String? = nil) -> String {
    var lines = header(summary)
    if let appStore = summary.appStore {
      lines.append("  App Store: \(appStore).")
    } else if let missingAppStore {
      lines.append("  App Store: none configured; \(missingAppStore)")
    }
    if let stored = summary.storeAppStore, stored != summary.appStore {
      lines.append("  The database's App Store data came from \(stored).")
    }
    if !summary.findings.isEmpty {
      lines.append(
        "  Purchases: "
          + TokenFinding.allCases.compactMap { finding in
            summary.findings[finding].map { "\(count($0)) \(label(finding))" }
          }.joined(separator: ", ") + ".")
    }
    lines += counts(summary)
    lines.append("")
    lines += table(summary)
    lines += listed(summary)
    lines.append("")
    lines += closing(summary)
    return lines.joined(separator: "\n") + "\n"
  }

  // MARK: - Text parts

  private static func header(_ summary: LinkSummary) -> [String] {
    let asOf = summary.asOf.map { " as of \($0.iso8601)" } ?? ""
    switch (summary.kind, summary.isDryRun) {
    case (.undo, _):
      return [
        "Undo of link run \(summary.undoesRunId ?? "?")"
          + (summary.runId.map { " (run \($0))" } ?? "") + ":"
      ]
    case (.apply, true):
      return [
        "Link plan (dry run, nothing sent): tokens from \(summary.mapping), "
          + "\(count(summary.accounts)) account(s) audited\(asOf)."
      ]
    case (.apply, false):
      return [
        "Link run \(summary.runId ?? "-"): tokens from \(summary.mapping), "
          + "\(count(summary.accounts)) account(s) audited\(asOf)."
      ]
    }
  }

  private static func counts(_ summary: LinkSummary) -> [String] {
    var lines: [String] = []
    let toWrite = summary.writes.filter { $0.state != .skipped }
    if summary.kind == .apply {
      let replacing = toWrite.count { $0.oldToken != nil }
      var line = "  To write: \(count(toWrite.count))"
      if !toWrite.isEmpty {
        line +=
          " (\(count(toWrite.count - replacing)) missing a token, \(count(replacing)) "
          + "carrying another)"
        let environments = Dictionary(grouping: toWrite, by: { $0.environment.lowercased() })
          .mapValues(\.count)
        // Production first: it is where a mistake costs.
        let names = environments.keys.sorted { left, right in
          left == "production" || (right != "production" && left < right)
        }
        let parts: [String] = names.map { "\(count(environments[$0] ?? 0)) in \($0)" }
        line += "; " + parts.joined(separator: ", ")
      }
      lines.append(line + ".")
    } else {
      lines.append("  To restore: \(count(toWrite.count)).")
    }
    let skipped = summary.skippedByReason
    if !skipped.isEmpty {
      lines.append(
        "  Skipped: "
          + skipped.sorted { order($0.key) < order($1.key) }.map {
            "\(count($0.value)) \(reasonLabel($0.key))"
          }.joined(separator: ", ") + ".")
    }
    if summary.kind == .apply, !toWrite.isEmpty {
      lines.append(
        "  Undo: \(count(summary.undoable)) of these can be undone (they replace a token); "
          + "\(count(summary.notUndoable)) set a token on a purchase that has none, which "
          + "Apple cannot remove. Renewals made between --apply and --undo keep the written "
          + "token for good (Apple never rewrites a past transaction).")
    }
    if summary.kind == .undo, summary.outcome.transactionsKeepingToken > 0 {
      lines.append(
        "  \(count(summary.outcome.transactionsKeepingToken)) transaction(s) bought between "
          + "the apply and this undo keep the applied token: Apple never rewrites a past "
          + "transaction.")
    } else if summary.kind == .undo, !toWrite.isEmpty {
      lines.append(
        "  Renewals bought between the apply and the undo keep the applied token: Apple never "
          + "rewrites a past transaction.")
    }
    if let estimate = summary.estimate, summary.planned > 0 {
      let paces = estimate.paces.map(describe)
      lines.append(
        "  Time at Apple's rates: at least \(seconds(estimate.seconds)) ("
          + paces.joined(separator: ", ") + ").")
    }
    if summary.isDryRun, summary.planned > 0 {
      lines.append(
        "  Before a customer's writes, --apply asks Apple again (one history call with the "
          + "stored revision) and leaves alone every purchase whose token changed since the "
          + "last fetch.")
    }
    if !summary.isDryRun {
      var done = "  This run: \(count(summary.outcome.sent)) sent and confirmed"
      if summary.outcome.confirmedWithoutResending > 0 {
        done +=
          ", \(count(summary.outcome.confirmedWithoutResending)) found set after an "
          + "interruption (not sent again)"
      }
      let later = summary.outcome.skipped.values.reduce(0, +)
      if later > 0 { done += ", \(count(later)) skipped after asking Apple again" }
      done += ", \(count(summary.outcome.failed)) failed"
      if summary.outcome.rereadRequests > 0 {
        done += "; \(count(summary.outcome.rereadRequests)) history call(s) to ask again"
      }
      lines.append(done + ".")
    }
    return lines
  }

  private static func table(_ summary: LinkSummary) -> [String] {
    let shown = summary.writes.filter { $0.state != .skipped }
    guard !shown.isEmpty else {
      return [
        summary.kind == .undo
          ? "Nothing to restore."
          : "Nothing to write: every purchase in scope carries its account's token."
      ]
    }
    var table = TextTable(columns: [
      .init("Account"), .init("Original transaction"), .init("Environment"),
      .init(summary.kind == .undo ? "Token written by the run" : "Token now"),
      .init(summary.kind == .undo ? "Token restored" : "Token written"), .init("State"),
    ])
    for write in shown.prefix(listedWrites) {
      table.addRow([
        write.accountId, write.originalTransactionId, write.environment,
        write.oldToken ?? "none", write.newToken.isEmpty ? "-" : write.newToken,
        write.state.rawValue,
      ])
    }
    var lines = [table.rendered()]
    if shown.count > listedWrites {
      lines.append("… and \(count(shown.count - listedWrites)) more (--json lists all)")
    }
    return lines
  }

  private static func listed(_ summary: LinkSummary) -> [String] {
    var lines: [String] = []
    let skipped = summary.skipped.filter { !planReasons.contains($0.reason ?? "") }
    for write in skipped.prefix(listedWrites) {
      lines.append(
        "Skipped: \(write.originalTransactionId) (\(write.accountId)): \(write.answer ?? "")")
    }
    if skipped.count > listedWrites {
      lines.append("… and \(count(skipped.count - listedWrites)) more skipped (--json lists all)")
    }
    for write in summary.failed {
      lines.append(
        "Failed: \(write.originalTransactionId) (\(write.accountId)): \(write.answer ?? "")")
    }
    return lines
  }

  private static func closing(_ summary: LinkSummary) -> [String] {
    if summary.isDryRun {
      guard summary.planned > 0 else { return ["Planned: 0 writes."] }
      var line = "Planned: \(count(summary.planned)) write(s). Send them with --apply"
      if summary.notUndoable > 0 {
        line += " --yes (--yes confirms the \(count(summary.notUndoable)) that cannot be undone)"
      }
      return [line + "."]
    }
    var lines = ["Still planned: \(count(summary.planned))."]
    if summary.kind == .apply, let runId = summary.runId, summary.confirmed > 0 {
      let restorable = summary.writes.count { $0.state == .confirmed && $0.oldToken != nil }
      lines.append(
        restorable == 0
          ? "No undo can take this run back: each of its \(count(summary.confirmed)) write(s) set "
            + "a token on a purchase that had none."
          : "Undo it with: receipt-migrate link --undo \(runId) (it can restore "
            + "\(count(restorable)) of the \(count(summary.confirmed)) confirmed write(s))")
    }
    return lines
  }

  // MARK: - JSON

  /// The summary as one JSON object: `planned` (writes still needed, 0 when nothing is left),
  /// the counts, the App Store, and every write with its state and reason.
  ///
  /// - Parameter summary: the summary.
  /// - Returns: the JSON text, ending with a newline.
  public static func json(_ summary: LinkSummary) -> String {
    var writer = JSONWriter(style: .pretty)
    writer.beginObject()
    writer.field("dry_run", summary.isDryRun)
    writer.field("kind", summary.kind.rawValue)
    writer.field("run_id", summary.runId)
    writer.field("undoes_run_id", summary.undoesRunId)
    writer.field("mapping", summary.mapping)
    writer.field("app_store", summary.appStore)
    writer.field("store_app_store", summary.storeAppStore)
    writer.field("as_of", summary.asOf?.iso8601)
    writer.field("accounts", summary.accounts)
    writer.field("planned", summary.planned)
    writer.field("sent", summary.outcome.sent)
    writer.field("confirmed_without_resending", summary.outcome.confirmedWithoutResending)
    writer.field("confirmed", summary.confirmed)
    writer.field("skipped", summary.skipped.count)
    writer.key("skipped_by_reason")
    writer.beginObject()
    for (reason, count) in summary.skippedByReason.sorted(by: { order($0.key) < order($1.key) }) {
      writer.field(reason, count)
    }
    writer.endObject()
    writer.field("failed", summary.failed.count)
    if summary.kind == .apply {
      writer.field("undoable", summary.undoable)
      writer.field("not_undoable", summary.notUndoable)
    } else {
      writer.field("transactions_keeping_token", summary.outcome.transactionsKeepingToken)
    }
    writer.field("history_calls", summary.outcome.rereadRequests)
    writer.field("estimated_seconds", summary.estimate.map { ($0.seconds * 10).rounded() / 10 })
    writer.key("purchases")
    writer.beginObject()
    for finding in TokenFinding.allCases {
      writer.field(finding.rawValue, summary.findings[finding] ?? 0)
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
      writer.field("product_type", write.productType)
      writer.field("old_token", write.oldToken)
      writer.field("new_token", write.newToken.isEmpty ? nil : write.newToken)
      writer.field("state", write.state.rawValue)
      writer.field("reason", write.reason)
      writer.field("answer", write.answer)
      writer.field("undone_by", write.undoneBy)
      writer.endObject()
    }
    writer.endArray()
    writer.endObject()
    return writer.string + "\n"
  }

  // MARK: - Words

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

  static func reasonLabel(_ raw: String) -> String {
    LinkSkipReason(rawValue: raw)?.label ?? raw
  }

  static func order(_ raw: String) -> Int {
    LinkSkipReason(rawValue: raw).flatMap { LinkSkipReason.allCases.firstIndex(of: $0) }
      ?? LinkSkipReason.allCases.count
  }

  /// `238 write(s) at 20/s in production`.
  static func describe(_ pace: LinkEstimate.Pace) -> String {
    let what = pace.endpoint == .setAppAccountToken ? "write(s)" : "history call(s)"
    let digits = pace.perSecond < 10 ? 1 : 0
    let rate = NumberFormatting.decimal(pace.perSecond, fractionDigits: digits)
    return "\(count(pace.requests)) \(what) at \(rate)/s in "
      + pace.environment.rawValue.lowercased()
  }

  static func seconds(_ value: Double) -> String {
    DurationFormatting.compact(.seconds(Int64(value.rounded(.up))))
  }

  static func count(_ value: Int) -> String { NumberFormatting.grouped(value) }
}
