/// How current a run's App Store data is, in sentences shared by the terminal, Markdown and
/// HTML renderers: what an audit states right after what changed.
///
/// Everything here comes from the run's ``RefreshFacts``. Facts about the notification feed's
/// health and the age of the oldest stored data belong in ``facts(_:)`` too, beside the
/// watermarks, once the run summary carries them.
enum FreshnessText {
  /// The facts, one sentence each: the instants the data is current through, the customers
  /// still due, a spent budget.
  static func facts(_ refresh: RefreshFacts) -> [String] {
    var facts: [String] = []
    if refresh.watermarks.isEmpty {
      facts.append("No environment's App Store data is vouched for up to a known instant yet")
    } else {
      facts.append(
        "App Store data current through "
          + refresh.watermarks.sorted { $0.key < $1.key }.map { "\($0.value.iso8601) (\($0.key))" }
          .joined(separator: ", "))
    }
    facts.append(
      refresh.stillDue == 0
        ? "no customer left due"
        : "\(ReportFormatting.count(refresh.stillDue)) customer(s) still due: their accounts are "
          + "stale_app_store_data until the next run asks them")
    if let budget = refresh.budgetExhausted {
      facts.append("the --\(budget) budget stopped the refresh early")
    }
    return facts
  }

  /// The facts as one line: "App Store data current through …; no customer left due".
  static func line(_ refresh: RefreshFacts) -> String {
    facts(refresh).joined(separator: "; ")
  }
}
