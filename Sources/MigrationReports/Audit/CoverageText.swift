/// The lines that say which customers the run could not compare as accounts: accounts only in
/// the team's table, and App Store customers no account claims — the same words in the
/// terminal, `summary.md` and `report.html`.
enum CoverageText {
  /// The lines, without final periods; empty when every customer is an account's.
  ///
  /// - Parameter summary: the run's facts.
  /// - Returns: the lines.
  static func lines(_ summary: RunSummary) -> [String] {
    var lines: [String] = []
    if summary.tableAccountsAdopted > 0 {
      lines.append(
        "Accounts only in your table, backfilled from its customer ids: "
          + ReportFormatting.count(summary.tableAccountsAdopted))
    }
    if summary.tableOnlyAccounts > 0 {
      lines.append(
        "Accounts only in your table, not compared: "
          + "\(ReportFormatting.count(summary.tableOnlyAccounts)) (the legacy data does not hold "
          + "them; add an original_transaction_id or app_transaction_id column to backfill them)")
    }
    if summary.unclaimedCustomers > 0 {
      lines.append(
        "App Store customers no account claims: "
          + "\(ReportFormatting.count(summary.unclaimedCustomers)) (named by notifications; "
          + "--tokens or --derive-tokens follows those whose purchase carries your "
          + "appAccountToken)")
    }
    return lines
  }
}
