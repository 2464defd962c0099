/// Sentences about what changed since the previous run and about the refresh, shared by the
/// terminal, Markdown and HTML renderers so they say the same thing.
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

  /// "Since run X (as of 2025-11-01T00:00:00Z): …; your table: …".
  static func headline(_ since: RunChangeCounts) -> String {
    var parts: [String] = []
    if let primary = since.primary { parts.append(counts(primary)) }
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

  /// The most changes listed in the terminal and in summary.md; the CSV holds them all.
  static let listedInSummaries = 20
}
