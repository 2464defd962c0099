/// `receipt-migrate diff` for a terminal: what each side is, how their inputs differ, the moves
/// counted, and the changed accounts with the evidence lines that changed.
public enum RunDiffTextRenderer {
  /// The text.
  ///
  /// - Parameters:
  ///   - diff: the diff.
  ///   - limit: the most accounts listed (the JSON and HTML outputs list every one).
  public static func render(_ diff: RunDiff, limit: Int = 50) -> String {
    var out = ""
    func line(_ text: String = "") { out += text + "\n" }
    line("Before: \(diff.before.source) (run \(diff.before.runId), as of \(diff.before.asOf))")
    line("After:  \(diff.after.source) (run \(diff.after.runId), as of \(diff.after.asOf))")
    if diff.inputDifferences.isEmpty {
      line("Inputs: the same")
    } else {
      line("Inputs differ, so some differences below may come from them:")
      for sentence in diff.inputDifferences { line("  - \(sentence)") }
    }
    line()
    line(
      "Accounts: \(diff.accountsBefore) before, \(diff.accountsAfter) after; "
        + "\(diff.onlyBefore.count) only before, \(diff.onlyAfter.count) only after")
    line("Primary category (old logic vs the App Store): \(counts(diff.primary))")
    if let table = diff.table {
      line("Team table category: \(counts(table))")
    } else {
      line("Team table category: not compared (both runs must have compared a table)")
    }
    guard !diff.changes.isEmpty else {
      line()
      line("No account changed category.")
      return out
    }
    line()
    line("Accounts whose category changed:")
    for change in diff.changes.prefix(limit) {
      var moves: [String] = []
      if let primary = change.primary { moves.append("\(primary.kind.title): \(primary.arrow)") }
      if let table = change.table { moves.append("table \(table.kind.title): \(table.arrow)") }
      line("  \(change.accountId)  \(moves.joined(separator: "; "))")
      for removed in change.evidenceRemoved { line("    - \(removed)") }
      for added in change.evidenceAdded { line("    + \(added)") }
    }
    if diff.changes.count > limit {
      line("  … and \(diff.changes.count - limit) more (--json or --html lists every one)")
    }
    return out
  }

  /// "2 new findings, 1 resolved, 0 other categories, 5 persisting".
  static func counts(_ counts: ChangeCounts) -> String {
    "\(counts[.newFinding]) new finding(s), \(counts[.resolved]) resolved, "
      + "\(counts[.categoryChanged]) changed category, \(counts[.persisting]) persisting"
  }
}
