import Entitlements
import Foundation

/// Writes a run's report: `report.html`, `summary.md`, `discrepancies.csv`,
/// `discrepancies.ndjson` and `run.json`, and the `latest` link beside the run folders.
///
/// Output depends only on the input: accounts are listed in a fixed order (what changes for
/// customers first, then account id), no clock is read, and every instant comes from the
/// ``RunSummary``. The same run therefore renders to the same bytes every time, which is what
/// lets `receipt-migrate report` regenerate a report from the store and what the golden-file
/// tests check.
public enum ReportWriter {
  /// The version of `run.json` and of each `discrepancies.ndjson` line; it changes when a
  /// field changes meaning or disappears (new fields may be added within a version).
  public static let schemaVersion = 1

  /// The files of every report, in the order they are written.
  public static let fileNames = renderers.map(\.name)

  /// The file a run that compared a team table writes after ``fileNames``: the rows that make
  /// the table agree with the App Store, in the table's own format.
  public static let fixesFileName = "fixes.csv"

  /// The files of one run's report, in the order they are written: ``fileNames``, and
  /// ``fixesFileName`` when the run compared a team table.
  ///
  /// - Parameter summary: the run's facts.
  /// - Returns: the file names.
  public static func fileNames(for summary: RunSummary) -> [String] {
    fileNames + (summary.comparedTeamTable ? [fixesFileName] : [])
  }

  /// Each file's name and renderer, in the order they are written.
  static let renderers:
    [(name: String, render: @Sendable (ReportContent, inout ReportOutput) -> Void)] = [
      ("report.html", { HTMLReportRenderer(content: $0).render(into: &$1) }),
      ("summary.md", { $1.write(SummaryMarkdownRenderer(content: $0).render()) }),
      ("discrepancies.csv", { DiscrepanciesCSVRenderer(content: $0).render(into: &$1) }),
      ("discrepancies.ndjson", { DiscrepanciesNDJSONRenderer(content: $0).render(into: &$1) }),
      ("discrepancy-keys.csv", { DiscrepancyKeysCSVRenderer(content: $0).render(into: &$1) }),
      (
        "discrepancy-keys.ndjson",
        { DiscrepancyKeysNDJSONRenderer(content: $0).render(into: &$1) }
      ),
      ("run.json", { $1.write(RunJSONRenderer(content: $0).render()) }),
      ("changes.csv", { ChangesCSVRenderer(content: $0).render(into: &$1) }),
      ("lost-notifications.csv", { LostNotificationsCSVRenderer(content: $0).render(into: &$1) }),
      ("account-tokens.csv", { AccountTokensCSVRenderer(content: $0).render(into: &$1) }),
    ]

  /// The name of the link to the most recent run, beside the run folders.
  public static let latestLinkName = "latest"

  // MARK: - Rendering

  /// Renders every file of a report in memory.
  ///
  /// - Parameters:
  ///   - summary: the run's facts.
  ///   - comparisons: one comparison per account, in any order.
  ///   - options: rendering choices, such as pseudonymisation.
  /// - Returns: every file, in ``fileNames`` order.
  public static func render(
    summary: RunSummary, comparisons: [AccountComparison], context: RunContext = RunContext(),
    options: ReportOptions = ReportOptions()
  ) -> [ReportFile] {
    // Memory never fails to take bytes, and an array never fails to give its comparisons.
    let files =
      (try? ReportComposer.compose(
        summary: summary, source: ComparisonArray(comparisons), context: context,
        options: options, open: { name throws(ReportError) in ReportFileWriter.memory(name) }))
      ?? []
    return files.map { ReportFile(name: $0.name, bytes: $0.bytes) }
  }

  /// Renders one file of a report, by its name in ``fileNames``: what `compare --json`
  /// (`run.json`) and `explain --json` (`discrepancies.ndjson` of one account) print, so a
  /// script reads exactly the schema the report files have.
  ///
  /// - Returns: the file's bytes, or `nil` for a name that is not a report file.
  public static func render(
    file name: String, summary: RunSummary, comparisons: [AccountComparison],
    context: RunContext = RunContext(), options: ReportOptions = ReportOptions()
  ) -> [UInt8]? {
    guard let renderer = renderers.first(where: { $0.name == name }) else { return nil }
    let content = ReportContent(
      summary: summary, comparisons: comparisons, context: context, options: options)
    var output = ReportOutput()
    renderer.render(content, &output)
    return output.bytes
  }

  /// Renders `run.json` from counts gathered while the comparisons streamed past: what
  /// `compare --json` prints, the same bytes as the report's `run.json`.
  ///
  /// - Returns: the file's bytes.
  public static func runJSON(
    summary: RunSummary, statistics: RunStatistics, context: RunContext = RunContext(),
    options: ReportOptions = ReportOptions()
  ) -> [UInt8] {
    let content = ReportContent(
      summary: summary, statistics: statistics.final,
      tokens: summary.tokenMapping == nil ? nil : statistics.tokens, context: context,
      options: options)
    return RunJSONRenderer(content: content).render()
  }

  // MARK: - Writing

  /// Writes every file of a report into a folder, creating it (mode 0700) when needed. Each
  /// file (mode 0600, as reports name accounts) is written beside its final name and renamed
  /// into place, so a reader sees either the old file or the new one, never half of one.
  ///
  /// - Parameters:
  ///   - summary: the run's facts.
  ///   - comparisons: one comparison per account, in any order.
  ///   - directory: the folder to write into.
  ///   - options: rendering choices, such as pseudonymisation.
  /// - Returns: the paths written, in ``fileNames`` order.
  /// - Throws: ``ReportError`` when the folder cannot be created or a file cannot be written.
  @discardableResult
  public static func write(
    summary: RunSummary, comparisons: [AccountComparison], context: RunContext = RunContext(),
    to directory: String, options: ReportOptions = ReportOptions()
  ) throws(ReportError) -> [String] {
    do {
      return try write(
        summary: summary, source: ComparisonArray(comparisons), context: context, to: directory,
        options: options)
    } catch let error as ReportError {
      throw error
    } catch {
      // An array gives its comparisons without failing; only files can fail here.
      throw ReportError(.cannotWriteFile, path: directory, "\(error)")
    }
  }

  /// Writes every file of a report into a folder, streaming the accounts from `source` in one
  /// pass: memory holds one chunk of comparisons, never all of them.
  ///
  /// - Parameters:
  ///   - summary: the run's facts.
  ///   - source: the accounts.
  ///   - directory: the folder to write into.
  ///   - options: rendering choices, such as pseudonymisation.
  /// - Returns: the paths written, in ``fileNames`` order.
  /// - Throws: ``ReportError`` when the folder cannot be created or a file cannot be written;
  ///   what `source` throws when it cannot give the comparisons.
  @discardableResult
  public static func write(
    summary: RunSummary, source: any ComparisonSource, context: RunContext = RunContext(),
    to directory: String, options: ReportOptions = ReportOptions()
  ) throws -> [String] {
    try ReportFileSystem.createDirectory(directory)
    let files = try ReportComposer.compose(
      summary: summary, source: source, context: context, options: options,
      open: { name throws(ReportError) in try ReportFileWriter.file(name, in: directory) })
    return files.map { ReportFileSystem.join(directory, $0.name) }
  }

  /// Writes a run's report into `<reportsDirectory>/<run id>/` and points
  /// `<reportsDirectory>/latest` at it: what `receipt-migrate migrate` and
  /// `receipt-migrate report` call.
  ///
  /// - Parameters:
  ///   - summary: the run's facts; its run id names the folder.
  ///   - comparisons: one comparison per account, in any order.
  ///   - reportsDirectory: the folder that holds the run folders, such as `Reports`.
  ///   - options: rendering choices, such as pseudonymisation.
  /// - Returns: the run folder's path.
  /// - Throws: ``ReportError`` when the run id cannot name a folder, or a folder, file or the
  ///   link cannot be written.
  @discardableResult
  public static func writeRun(
    summary: RunSummary, comparisons: [AccountComparison], context: RunContext = RunContext(),
    reportsDirectory: String, options: ReportOptions = ReportOptions()
  ) throws(ReportError) -> String {
    do {
      return try writeRun(
        summary: summary, source: ComparisonArray(comparisons), context: context,
        reportsDirectory: reportsDirectory, options: options)
    } catch let error as ReportError {
      throw error
    } catch {
      // An array gives its comparisons without failing; only files can fail here.
      throw ReportError(.cannotWriteFile, path: reportsDirectory, "\(error)")
    }
  }

  /// Writes a run's report like ``writeRun(summary:comparisons:context:reportsDirectory:options:)``,
  /// streaming the accounts from `source`.
  ///
  /// The folder is committed whole: every file is written into `.<run id>.partial` beside the
  /// run folders, and only when all are written is that folder renamed to `<run id>` (an
  /// earlier report of the run is replaced in the same step). A run killed while writing its
  /// report leaves no run folder, only the partial one, which the next report writer removes.
  ///
  /// - Throws: ``ReportError``, or what `source` throws.
  @discardableResult
  public static func writeRun(
    summary: RunSummary, source: any ComparisonSource, context: RunContext = RunContext(),
    reportsDirectory: String, options: ReportOptions = ReportOptions()
  ) throws -> String {
    try validateRunId(summary.runId)
    removeLeftovers(in: reportsDirectory)
    let directory = ReportFileSystem.join(reportsDirectory, summary.runId)
    let staged = ReportFileSystem.join(reportsDirectory, ".\(summary.runId).partial")
    try ReportFileSystem.removeDirectory(staged)
    try write(summary: summary, source: source, context: context, to: staged, options: options)
    try ReportFileSystem.commitDirectory(
      staged, to: directory,
      replacedName: ReportFileSystem.join(reportsDirectory, ".\(summary.runId).replaced"))
    try linkLatest(reportsDirectory: reportsDirectory, runId: summary.runId)
    return directory
  }

  /// Removes what a killed report writer leaves behind: `.<run id>.partial` and
  /// `.<run id>.replaced` folders, `<file>.tmp` files in run folders and `.latest.<run id>.tmp`
  /// links. Complete run folders and files are never touched (each was renamed into place
  /// whole), so this is safe whenever no other writer uses the folder — which the store lock
  /// guarantees for the commands that write reports.
  ///
  /// - Parameter reportsDirectory: the folder that holds the run folders.
  /// - Returns: the paths removed.
  @discardableResult
  public static func removeLeftovers(in reportsDirectory: String) -> [String] {
    let manager = FileManager.default
    guard let entries = try? manager.contentsOfDirectory(atPath: reportsDirectory) else {
      return []
    }
    var removed: [String] = []
    func remove(_ path: String) {
      if unlink(path) == 0 { removed.append(path) }
    }
    for entry in entries.sorted() {
      let path = ReportFileSystem.join(reportsDirectory, entry)
      if entry.hasPrefix(".\(latestLinkName).") && entry.hasSuffix(".tmp") {
        remove(path)
        continue
      }
      if entry.hasPrefix("."), entry.hasSuffix(".partial") || entry.hasSuffix(".replaced") {
        if (try? ReportFileSystem.removeDirectory(path)) != nil { removed.append(path) }
        continue
      }
      var status = stat()
      guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR,
        let files = try? manager.contentsOfDirectory(atPath: path)
      else { continue }
      for file in files.sorted() where file.hasSuffix(".tmp") {
        remove(ReportFileSystem.join(path, file))
      }
    }
    return removed
  }

  /// Points `<reportsDirectory>/latest` at `<run id>` (a relative symbolic link, so the folder
  /// can move), replacing any previous link atomically: the link is made under a temporary
  /// name and renamed over the old one, so `latest` always names some complete run.
  ///
  /// - Parameters:
  ///   - reportsDirectory: the folder that holds the run folders.
  ///   - runId: the run to point at.
  /// - Throws: ``ReportError`` when the run id cannot name a folder, `latest` exists and is
  ///   not a link, or the link cannot be made.
  public static func linkLatest(reportsDirectory: String, runId: String) throws(ReportError) {
    try validateRunId(runId)
    try ReportFileSystem.replaceSymbolicLink(
      at: ReportFileSystem.join(reportsDirectory, latestLinkName), target: runId,
      temporaryName: ".\(latestLinkName).\(runId).tmp")
  }

  // MARK: - Run ids

  /// Checks that a run id can name a folder: 1 to 128 letters, digits, `.`, `_` or `-`, not
  /// starting with `.`, and not `latest`.
  ///
  /// - Parameter runId: the run id.
  /// - Throws: ``ReportError`` (`invalidRunId`) naming what is wrong.
  public static func validateRunId(_ runId: String) throws(ReportError) {
    let allowed = runId.utf8.allSatisfy { byte in
      (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }
    guard allowed, (1...128).contains(runId.utf8.count), !runId.hasPrefix("."),
      runId != latestLinkName
    else {
      throw ReportError(
        .invalidRunId,
        "the run id \"\(runId)\" cannot name a report folder: use 1 to 128 letters, digits, "
          + "'.', '_' or '-', not starting with '.' and not \"latest\" "
          + "(run ids look like 20240615T120000Z-7f3a)")
    }
  }
}
