/// The store's runs: each comparison run from its start to its committed report and exit code,
/// and which earlier run a new one is compared with.
///
/// A run goes through four recorded steps: *begun* (``begin(_:)``), *compared*
/// (``finish(_:finishedMilliseconds:summary:)``: every account's classification and the summary
/// are stored), *reported* (``markReported(_:directory:at:)``: its report folder was committed)
/// and *ended* (``recordEnd(_:exitCode:at:)``: its command printed its headline, handed its
/// alerts over and is about to exit). Only a run both reported and ended is a baseline for
/// "what changed since the last run", and only such a run's lost notifications count as handed
/// over: a run killed anywhere between comparing and ending is superseded by the next, which
/// counts and lists the same changes again, so no alert is swallowed.
///
/// The ledger is a view over the store's connection: use it where the store is used.
public struct RunLedger {
  let database: SQLiteDatabase

  private static let columns =
    "id, started_ms, finished_ms, as_of_ms, simulated, inputs, summary, command, command_line, "
    + "recipe_key, reported_ms, report_directory, ended_ms, exit_code"

  private static func decode(_ row: SQLiteRow) throws -> RunRow {
    RunRow(
      id: try row.string(at: 0), startedMilliseconds: try row.int64(at: 1),
      finishedMilliseconds: try row.optionalInt64(at: 2), asOfMilliseconds: try row.int64(at: 3),
      isSimulated: try row.bool(at: 4), inputs: try row.string(at: 5),
      summary: try row.optionalString(at: 6), command: try row.optionalString(at: 7),
      commandLine: try row.optionalString(at: 8), recipeKey: try row.optionalString(at: 9),
      reportedMilliseconds: try row.optionalInt64(at: 10),
      reportDirectory: try row.optionalString(at: 11),
      endedMilliseconds: try row.optionalInt64(at: 12),
      exitCode: try row.optionalInt64(at: 13).map { Int($0) })
  }

  // MARK: - Recording

  /// Records the start of a run.
  ///
  /// - Parameter run: the run (not finished, not reported).
  /// - Throws: `SQLiteError`, also when a run with its id exists.
  public func begin(_ run: RunRow) throws {
    try database.run(
      """
      INSERT INTO runs (id, started_ms, as_of_ms, simulated, inputs, command, command_line,
        recipe_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """,
      binding: run.id, run.startedMilliseconds, run.asOfMilliseconds, run.isSimulated,
      run.inputs, run.command, run.commandLine, run.recipeKey)
  }

  /// Records that a run compared every account: its summary is stored.
  ///
  /// - Parameters:
  ///   - id: the run.
  ///   - finishedMilliseconds: when the comparisons were recorded.
  ///   - summary: its summary (JSON).
  /// - Throws: `SQLiteError`.
  public func finish(_ id: String, finishedMilliseconds: Int64, summary: String) throws {
    try database.run(
      "UPDATE runs SET finished_ms = ?, summary = ? WHERE id = ?", binding: finishedMilliseconds,
      summary, id)
  }

  /// Records that a run's report folder was committed.
  ///
  /// - Parameters:
  ///   - id: the run.
  ///   - directory: the report folder.
  ///   - milliseconds: when (Unix ms).
  /// - Throws: `SQLiteError`.
  public func markReported(_ id: String, directory: String, at milliseconds: Int64) throws {
    try database.run(
      "UPDATE runs SET reported_ms = ?, report_directory = ? WHERE id = ?", binding: milliseconds,
      directory, id)
  }

  /// Records that a run's command ended: its headline printed and its alerts handed over.
  ///
  /// - Parameters:
  ///   - id: the run.
  ///   - exitCode: the exit code it ends with.
  ///   - milliseconds: when (Unix ms).
  /// - Throws: `SQLiteError`.
  public func recordEnd(_ id: String, exitCode: Int32, at milliseconds: Int64) throws {
    try database.run(
      "UPDATE runs SET ended_ms = ?, exit_code = ? WHERE id = ?", binding: milliseconds,
      Int64(exitCode), id)
  }

  // MARK: - Reading

  /// A run by id, or the most recent run when `id` is `nil`.
  ///
  /// - Parameter id: the run id.
  /// - Returns: the run, or `nil`.
  /// - Throws: `SQLiteError`.
  public func run(_ id: String?) throws -> RunRow? {
    if let id {
      return try database.firstRow(
        "SELECT \(Self.columns) FROM runs WHERE id = ?", binding: id, decode: Self.decode)
    }
    return try database.firstRow(
      "SELECT \(Self.columns) FROM runs ORDER BY started_ms DESC, id DESC LIMIT 1",
      decode: Self.decode)
  }

  /// The store's runs, newest first.
  ///
  /// - Parameter limit: at most this many, or `nil` for all.
  /// - Returns: the runs.
  /// - Throws: `SQLiteError`.
  public func runs(limit: Int? = nil) throws -> [RunRow] {
    var rows: [RunRow] = []
    try database.forEachRow(
      "SELECT \(Self.columns) FROM runs ORDER BY started_ms DESC, id DESC LIMIT ?",
      binding: Int64(limit ?? -1)
    ) { rows.append(try Self.decode($0)) }
    return rows
  }

  /// The run a later run is compared with: the complete run (reported and ended) that started
  /// last before it,
  /// preferring one whose classifications depend on the same inputs (the same recipe key).
  ///
  /// A run of other inputs is returned only when no complete run of the same inputs exists
  /// (the caller then compares only what both runs compared alike, and says so). Runs recorded
  /// before the store kept recipe keys count as runs of the same inputs.
  ///
  /// - Parameters:
  ///   - run: the later run.
  ///   - recipeKey: its recipe key, or `nil` to ignore inputs.
  /// - Returns: the earlier run, or `nil` when no complete run started before.
  /// - Throws: `SQLiteError`.
  public func baseline(before run: RunRow, recipeKey: String?) throws -> RunRow? {
    let earlier = """
      SELECT \(Self.columns) FROM runs
      WHERE reported_ms IS NOT NULL AND ended_ms IS NOT NULL AND id <> ?
        AND (started_ms < ? OR (started_ms = ? AND id < ?))
      """
    if let recipeKey,
      let same = try database.firstRow(
        earlier
          + " AND (recipe_key = ? OR recipe_key IS NULL) ORDER BY started_ms DESC, id DESC LIMIT 1",
        binding: run.id, run.startedMilliseconds, run.startedMilliseconds, run.id, recipeKey,
        decode: Self.decode)
    {
      return same
    }
    return try database.firstRow(
      earlier + " ORDER BY started_ms DESC, id DESC LIMIT 1",
      binding: run.id, run.startedMilliseconds, run.startedMilliseconds, run.id,
      decode: Self.decode)
  }

  /// When the last run whose command ended with exit code 0 ended, if any did.
  ///
  /// - Returns: the instant (Unix ms), or `nil`.
  /// - Throws: `SQLiteError`.
  public func lastSuccessMilliseconds() throws -> Int64? {
    try database.firstRow(
      "SELECT MAX(ended_ms) FROM runs WHERE exit_code = 0", decode: { try $0.optionalInt64(at: 0) }
    ) ?? nil
  }

  /// Forgets where a run's report was, once its folder was removed; the run stays reported (a
  /// baseline), its report can be written again with `report`.
  ///
  /// - Parameter id: the run.
  /// - Throws: `SQLiteError`.
  public func forgetReportDirectory(_ id: String) throws {
    try database.run("UPDATE runs SET report_directory = NULL WHERE id = ?", binding: id)
  }

  /// The complete runs that started before `run`, newest first: the history a report's trend
  /// shows.
  ///
  /// - Parameters:
  ///   - run: the run.
  ///   - limit: at most this many.
  /// - Returns: the runs.
  /// - Throws: `SQLiteError`.
  public func completeRuns(before run: RunRow, limit: Int) throws -> [RunRow] {
    var rows: [RunRow] = []
    try database.forEachRow(
      """
      SELECT \(Self.columns) FROM runs
      WHERE reported_ms IS NOT NULL AND ended_ms IS NOT NULL AND id <> ?
        AND (started_ms < ? OR (started_ms = ? AND id < ?))
      ORDER BY started_ms DESC, id DESC LIMIT ?
      """,
      binding: run.id, run.startedMilliseconds, run.startedMilliseconds, run.id, Int64(limit)
    ) { rows.append(try Self.decode($0)) }
    return rows
  }
}

extension MigrationStore {
  /// The store's run ledger.
  public var runLedger: RunLedger { RunLedger(database: database) }
}
