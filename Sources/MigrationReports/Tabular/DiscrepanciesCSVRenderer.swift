import Entitlements

/// Renders `discrepancies.csv`: a header, then one line per account in display order, for
/// spreadsheets. Lists inside a field are joined by `; `.
struct DiscrepanciesCSVRenderer {
  static let columns = [
    "account_id", "category", "impact", "cause", "explanation", "table_category",
    "suspected_flaws", "keys", "secondary_findings", "captured_at", "evaluated_record",
    "seed_ids", "customers", "other_accounts", "next_action",
  ]

  let content: ReportContent

  func render() -> String {
    var output = ReportOutput()
    render(into: &output)
    return String(decoding: output.bytes, as: UTF8.self)
  }

  func render(into output: inout ReportOutput) {
    Self.writeHeader(into: &output)
    for account in content.accounts { Self.write(account, into: &output) }
  }

  /// The header line.
  static func writeHeader(into output: inout ReportOutput) {
    output.write(CSVField.line(columns))
  }

  /// One account's line.
  static func write(_ account: AccountComparison, into output: inout ReportOutput) {
    output.write(CSVField.line(fields(account)))
  }

  private static func fields(_ account: AccountComparison) -> [String] {
    let evidence = account.evidence
    let otherAccounts = Set(evidence.customers.flatMap(\.otherAccounts))
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    return [
      account.accountId,
      account.category.rawValue,
      account.category.impact.rawValue,
      account.cause?.rawValue ?? "",
      account.explanation,
      account.tableCategory?.rawValue ?? "",
      account.suspectedFlaws.map(\.rawValue).joined(separator: "; "),
      account.keys.map(ViewText.keyLine).joined(separator: "; "),
      account.secondaryFindings.joined(separator: "; "),
      evidence.capturedAt?.iso8601 ?? "",
      evidence.legacyRecords.first(where: \.isEvaluated)?.source ?? "",
      evidence.seedIds.map(seedText).joined(separator: "; "),
      evidence.customers.map { "\($0.key) \($0.environment)" }.joined(separator: "; "),
      otherAccounts.joined(separator: "; "),
      NextAction.of(account),
    ]
  }

  /// `1000000001 found Production`, with ` unverified` for ids from an unverified receipt.
  private static func seedText(_ seed: AccountEvidence.SeedId) -> String {
    var text = "\(seed.id) \(seed.outcome.rawValue)"
    if let environment = seed.environment { text += " \(environment)" }
    if seed.isUnverified { text += " unverified" }
    return text
  }
}
