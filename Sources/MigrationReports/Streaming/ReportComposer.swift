import Entitlements

/// Composes every file of a report in one pass over the accounts, in display order, a chunk at
/// a time: the per-account files (`discrepancies.*`, `discrepancy-keys.*`) and report.html's
/// rows are written as the accounts stream past while the aggregates are counted; the files
/// that lead with aggregates (report.html, summary.md, run.json) are written after. Memory
/// holds one chunk of comparisons and the aggregates; the source orders the accounts (a
/// store-backed one inside the store), so nothing here grows with the number of accounts.
enum ReportComposer {
  /// Accounts compared (or read) at once.
  static let chunkSize = 512

  /// Writes every file through `open`, which makes each file's writer; commits them all when
  /// every one was written, discards them all otherwise.
  ///
  /// - Parameters:
  ///   - summary: the run's facts.
  ///   - source: the accounts.
  ///   - context: the changes since the previous run and the lost notifications.
  ///   - options: rendering choices.
  ///   - open: makes the writer of one file (in memory or beside its final path).
  /// - Returns: the writers, committed, in ``ReportWriter/fileNames`` order.
  /// - Throws: ``ReportError`` when a file cannot be written, or what the source throws.
  static func compose(
    summary: RunSummary, source: any ComparisonSource, context: RunContext,
    options: ReportOptions, open: (String) throws(ReportError) -> ReportFileWriter
  ) throws -> [ReportFileWriter] {
    var writers: [String: ReportFileWriter] = [:]
    func writer(_ name: String) throws(ReportError) -> ReportFileWriter {
      if let existing = writers[name] { return existing }
      let made = try open(name)
      writers[name] = made
      return made
    }
    do {
      let csv = try writer("discrepancies.csv")
      let ndjson = try writer("discrepancies.ndjson")
      let keysCSV = try writer("discrepancy-keys.csv")
      let keysNDJSON = try writer("discrepancy-keys.ndjson")
      // Only a run that compared a team table has fixes to give it.
      let fixes =
        summary.comparedTeamTable
        ? FixesCSVRenderer(format: options.teamTableFormat ?? .standard) : nil
      let fixesCSV = try fixes.map { _ throws(ReportError) in
        try writer(ReportWriter.fixesFileName)
      }
      if let fixes, let fixesCSV { fixes.writeHeader(into: &fixesCSV.output) }
      // report.html's rows, gathered apart: the page leads with aggregates not known yet.
      let htmlRows = try writer(Self.rowsScratchName)
      DiscrepanciesCSVRenderer.writeHeader(into: &csv.output)
      DiscrepancyKeysCSVRenderer.writeHeader(into: &keysCSV.output)
      var statistics = ReportStatistics(topExplanationCount: options.topExplanationCount)
      var tokens = summary.tokenMapping == nil ? nil : TokenAuditStatistics()
      // The rows name each account by the id the report shows: the changes, likewise.
      let shownChanges = options.pseudonymizer.map { $0.redacting(context) }?.changes
      var rows = HTMLAccountRows(
        asOf: summary.asOf, options: options, changes: shownChanges ?? context.changes)
      try source.forEachInDisplayOrder(
        chunkSize: chunkSize, pseudonymizer: options.pseudonymizer
      ) { comparisons in
        for comparison in comparisons {
          let account = options.pseudonymizer?.redacting(comparison) ?? comparison
          statistics.add(account)
          tokens?.add(account)
          DiscrepanciesCSVRenderer.write(account, into: &csv.output)
          DiscrepanciesNDJSONRenderer.write(account, into: &ndjson.output)
          DiscrepancyKeysCSVRenderer.write(account, into: &keysCSV.output)
          DiscrepancyKeysNDJSONRenderer.write(account, into: &keysNDJSON.output)
          rows.add(account, to: &htmlRows.output)
          if let fixes, let fixesCSV { fixes.write(account, into: &fixesCSV.output) }
        }
      }
      statistics.finish()
      tokens?.finish()
      let content = ReportContent(
        summary: summary, statistics: statistics, tokens: tokens, context: context,
        options: options, accountsListedInHTML: rows.listed,
        accountsWithHTMLEvidence: rows.withEvidence)

      var failure: ReportError?
      let html = try writer("report.html")
      HTMLReportRenderer(content: content).render(into: &html.output) { output in
        do throws(ReportError) {
          try htmlRows.copy(into: &output)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      // Every other file shows only aggregates and context: the writer's own list renders them,
      // so a file added there is written here too.
      for (name, render) in ReportWriter.renderers where writers[name] == nil {
        render(content, &(try writer(name)).output)
      }

      htmlRows.discard()
      let files =
        try ReportWriter.fileNames.map { name throws(ReportError) in try writer(name) }
        + (fixesCSV.map { [$0] } ?? [])
      for file in files { try file.commit() }
      return files
    } catch {
      for writer in writers.values { writer.discard() }
      throw error
    }
  }

  /// The scratch file that holds report.html's rows while they are gathered.
  static let rowsScratchName = "report.html.rows"
}
