/// Renders `changes.csv`: one row per account and side whose category changed since the run
/// compared with — `account_id,side,change,from,to` — for a spreadsheet or an alert.
struct ChangesCSVRenderer {
  let content: ReportContent

  func render(into output: inout ReportOutput) {
    output.write(CSVField.line(["account_id", "side", "change", "from", "to"]))
    for change in content.context.changes {
      for (side, move) in [("primary", change.primary), ("table", change.table)] {
        guard let move else { continue }
        output.write(
          CSVField.line([change.accountId, side, move.kind.rawValue, move.from ?? "", move.to]))
      }
    }
  }
}
