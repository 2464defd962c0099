// MARK: - Ids found outside the legacy data: the team table, followed notifications

extension MigrationStore {
  /// Stores an id found outside the legacy inputs — a team-table row naming the customer of an
  /// account the legacy data does not hold, or a notification whose `appAccountToken` the token
  /// mapping resolves — as that account's seed, through a legacy record of kind `seed` like a
  /// CSV id list's, so the backfill fetches its customer as it does any new legacy id. The
  /// account is added when the store does not hold it. The record's ingest run is marked
  /// `discovered`, so it never counts as an ingest of the legacy inputs.
  ///
  /// - Parameters:
  ///   - id: the customer's id (an original transaction id or an `appTransactionId`).
  ///   - accountId: the account.
  ///   - source: where it was found: `team_table` or `notification`.
  ///   - sourcePath: the file or feed it came from, for the evidence.
  ///   - sourceLine: the line, for a file.
  ///   - raw: the bytes it was read from (the table's line, or a description of the
  ///     notification).
  ///   - contentSHA256: SHA-256 of `raw`.
  ///   - environment: the environment, when known.
  ///   - now: the wall clock (Unix ms).
  /// - Returns: whether the seed was new to the account.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func storeDiscoveredSeed(
    _ id: String, accountId: String, source: String, sourcePath: String, sourceLine: Int?,
    raw: [UInt8], contentSHA256: [UInt8], environment: String?, now: Int64
  ) throws -> Bool {
    let known =
      try database.firstRow(
        "SELECT 1 FROM seeds WHERE account_id = ? AND original_transaction_id = ?",
        binding: accountId, id
      ) { _ in true } ?? false
    guard !known else { return false }
    return try writeTransaction {
      let run = try beginIngestRun(
        inputs: "{\"discovered\":\"\(source)\"}", startedMilliseconds: now)
      let record = try storeLegacyRecord(
        LegacyRecordRow(
          accountId: accountId, contentSHA256: contentSHA256, sourcePath: sourcePath,
          sourceLine: sourceLine, sourceOffset: 0, format: source == "team_table" ? "csv" : "json",
          kind: "seed", status: nil, environment: environment, capturedMilliseconds: now,
          bundleId: nil, shape: nil, raw: raw),
        runId: run, now: now)
      let recordId: Int64
      switch record {
      case .inserted(let inserted, _): recordId = inserted
      case .alreadyStored(let stored): recordId = stored
      }
      try storeSeeds(
        [SeedRow(originalTransactionId: id, source: source, environment: environment)],
        accountId: accountId, recordId: recordId)
      try finishIngestRun(run, finishedMilliseconds: now, summary: "{}")
      return true
    }
  }

  /// The accounts of a run's stored team table that the store does not hold (neither the legacy
  /// data nor a discovered id gave them), sorted, with how many rows each has.
  ///
  /// - Parameter runId: the run.
  /// - Returns: the accounts.
  /// - Throws: `SQLiteError`.
  public func tableOnlyAccounts(runId: String) throws -> [(accountId: String, rows: Int)] {
    var accounts: [(accountId: String, rows: Int)] = []
    try database.forEachRow(
      """
      SELECT account_id, count(*) FROM run_current_entitlements
      WHERE run_id = ? AND account_id NOT IN (SELECT account_id FROM accounts)
      GROUP BY account_id ORDER BY account_id
      """, binding: runId
    ) { accounts.append((try $0.string(at: 0), try $0.int(at: 1))) }
    return accounts
  }

  /// How many rows a run's stored team table has for an account.
  ///
  /// - Parameters:
  ///   - runId: the run.
  ///   - accountId: the account.
  /// - Returns: the number of rows (0 when the run compared no table, or the table does not
  ///   name the account).
  /// - Throws: `SQLiteError`.
  public func tableRowCount(runId: String, accountId: String) throws -> Int {
    try database.firstRow(
      "SELECT count(*) FROM run_current_entitlements WHERE run_id = ? AND account_id = ?",
      binding: runId, accountId
    ) { try $0.int(at: 0) } ?? 0
  }
}
