import AppStoreServerAPI
import JSON
import Terminal

/// Renders a ``BackfillSummary`` for people: what `receipt-migrate backfill` prints.
public enum BackfillSummaryRenderer {
  /// The summary as aligned text.
  ///
  /// - Parameters:
  ///   - summary: the summary.
  ///   - storePath: the store's path, named in the output.
  /// - Returns: the text, ending with a newline.
  public static func text(_ summary: BackfillSummary, storePath: String) -> String {
    let seconds = NumberFormatting.decimal(
      Double(summary.durationMilliseconds) / 1000, fractionDigits: 2)
    var lines = [
      "Backfilled \(count(summary.groups)) group(s) of ids in \(seconds) s: "
        + "\(count(summary.customers)) customer(s) completed"
        + (summary.resumedCustomers > 0
          ? " (\(count(summary.resumedCustomers)) resumed from an interrupted run)" : "")
        + ", \(count(summary.historyPages)) history page(s), "
        + "\(count(summary.statusCalls)) status call(s).",
      "",
    ]
    var outcomes = TextTable(columns: [.init("Ids"), .init("Count", alignment: .right)])
    for (outcome, meaning) in [
      ("found", "found (their customer's history was walked)"),
      ("covered", "covered by a customer already walked"),
      ("unknown", "unknown to the App Store (both environments)"),
      ("invalid", "malformed (the App Store refused the id)"),
    ] {
      if let value = summary.idOutcomes[outcome], value > 0 {
        outcomes.addRow([meaning, count(value)])
      }
    }
    if summary.failedIds > 0 {
      outcomes.addRow(["still failed after retries (run backfill again)", count(summary.failedIds)])
    }
    for (outcome, meaning) in [
      ("valid", "order ids looked up: valid (their transactions became ids)"),
      ("invalid", "order ids looked up: not orders of this app (status 1)"),
      ("failed", "order ids whose look-up failed (run backfill again)"),
    ] {
      if let value = summary.orderOutcomes[outcome], value > 0 {
        outcomes.addRow([meaning, count(value)])
      }
    }
    if outcomes.rows.isEmpty {
      lines.append("No id needed the App Store: every one was resolved by an earlier run.")
    } else {
      lines.append(outcomes.rendered())
    }
    if let counters = summary.counters, !counters.endpoints.isEmpty {
      lines.append("")
      var requests = TextTable(columns: [
        .init("Endpoint"), .init("Requests", alignment: .right),
        .init("Retries", alignment: .right), .init("429s", alignment: .right),
        .init("Errors", alignment: .right),
      ])
      for endpoint in counters.endpoints.keys.sorted() {
        let counts = counters[endpoint]
        requests.addRow([
          endpoint.rawValue, count(counts.requests), count(counts.retries),
          count(counts.rateLimited), count(counts.failures),
        ])
      }
      lines.append(requests.rendered())
    }
    lines.append("")
    lines.append("The store \(storePath) holds it all; compare with receipt-migrate compare.")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The summary as one JSON object, for scripts (`backfill --json`). Every id outcome is
  /// present, zero or not; requests are per endpoint, by its stable name.
  public static func json(_ summary: BackfillSummary, storePath: String) -> String {
    var writer = JSONWriter(style: .pretty)
    writer.beginObject()
    writer.field("database", storePath)
    writer.field("duration_ms", summary.durationMilliseconds)
    writer.field("groups", summary.groups)
    writer.field("customers_completed", summary.customers)
    writer.field("customers_resumed", summary.resumedCustomers)
    writer.field("history_pages", summary.historyPages)
    writer.field("status_calls", summary.statusCalls)
    writer.key("ids")
    writer.beginObject()
    for outcome in ["found", "covered", "unknown", "invalid"] {
      writer.field(outcome, summary.idOutcomes[outcome] ?? 0)
    }
    writer.field("failed", summary.failedIds)
    writer.endObject()
    writer.key("order_ids")
    writer.beginObject()
    for outcome in ["valid", "invalid", "failed"] {
      writer.field(outcome, summary.orderOutcomes[outcome] ?? 0)
    }
    writer.endObject()
    writer.key("requests")
    writer.beginObject()
    if let counters = summary.counters {
      for endpoint in counters.endpoints.keys.sorted() {
        let counts = counters[endpoint]
        writer.key(endpoint.rawValue)
        writer.beginObject()
        writer.field("requests", counts.requests)
        writer.field("retries", counts.retries)
        writer.field("rate_limited", counts.rateLimited)
        writer.field("errors", counts.failures)
        writer.endObject()
      }
    }
    writer.endObject()
    writer.endObject()
    return String(decoding: writer.bytes, as: UTF8.self) + "\n"
  }

  private static func count(_ value: Int) -> String { NumberFormatting.grouped(value) }
}
