/// Sentences about what changed since the previous run and about the refresh, shared by the
/// terminal, Markdown and HTML renderers so they say the same thing.
///
/// Two sides can change, and every count says which: *primary* (the old receipt logic against
/// the App Store) and *your table* (the team's entitlement table against the App Store) — the
/// same two sides `--fail-on` reads without and with `table:`.
enum ChangeText {
  /// "12 new findings, 5 resolved, 3 changed category, 80 persisting".
  static func counts(_ counts: ChangeCounts) -> String {
    [
      "\(ReportFormatting.count(counts[.newFinding])) new finding(s)",
      "\(ReportFormatting.count(counts[.resolved])) resolved",
      "\(ReportFormatting.count(counts[.categoryChanged])) changed category",
      "\(ReportFormatting.count(counts[.persisting])) persisting",
    ].joined(separator: ", ")
  }

  /// "Since run X (as of 2025-11-01T00:00:00Z): primary: …; your table: …".
  static func headline(_ since: RunChangeCounts) -> String {
    var parts: [String] = []
    if let primary = since.primary { parts.append("primary: " + counts(primary)) }
    if let table = since.table { parts.append("your table: " + counts(table)) }
    if since.newAccounts > 0 {
      parts.append("\(ReportFormatting.accounts(since.newAccounts)) new to the store")
    }
    var text =
      "Since run \(since.previousRunId) (as of \(since.previousAsOf.iso8601)): "
      + (parts.isEmpty ? "nothing compared" : parts.joined(separator: "; "))
    if !since.inputDifferences.isEmpty {
      text += " (inputs differ: " + since.inputDifferences.joined(separator: "; ") + ")"
    }
    return text
  }

  /// The audit's lead: "New findings: 3 accounts — 2 primary (the old logic against the App
  /// Store), 1 in your table". A side the two runs did not compare alike is left out, and said.
  static func newFindings(_ since: RunChangeCounts) -> String {
    var sides: [String] = []
    if let primary = since.primary?[.newFinding] {
      sides.append(
        "\(ReportFormatting.count(primary)) primary (the old logic against the App Store)")
    }
    if let table = since.table?[.newFinding] {
      sides.append("\(ReportFormatting.count(table)) in your table")
    }
    guard !sides.isEmpty else {
      return "New findings: not counted (the inputs differ from the run compared with)"
    }
    guard sides.count == 2 else {
      let only = since.primary?[.newFinding] ?? since.table?[.newFinding] ?? 0
      return "New findings: \(ReportFormatting.accounts(only)) ("
        + (since.primary != nil
          ? "primary: the old logic against the App Store)" : "in your table)")
    }
    let both = sides.joined(separator: ", ")
    guard let either = since.accountsWithNewFindings else { return "New findings: " + both }
    return "New findings: \(ReportFormatting.accounts(either)) — " + both
  }

  /// "Resolved: 1 primary, 1 in your table; changed category: 3 primary, 3 in your table".
  static func otherMoves(_ since: RunChangeCounts) -> String {
    func sides(_ kind: ChangeKind) -> String {
      [
        since.primary.map { "\(ReportFormatting.count($0[kind])) primary" },
        since.table.map { "\(ReportFormatting.count($0[kind])) in your table" },
      ].compactMap { $0 }.joined(separator: ", ")
    }
    return "Resolved: \(sides(.resolved)); changed category: \(sides(.categoryChanged))"
      + (since.newAccounts > 0
        ? "; \(ReportFormatting.accounts(since.newAccounts)) new to the store" : "")
  }

  /// The most changes listed in the terminal and in summary.md; the CSV holds them all.
  static let listedInSummaries = 20
}
