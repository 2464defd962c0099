import AppStoreServerAPI
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

  private static func count(_ value: Int) -> String { NumberFormatting.grouped(value) }
}
