// MARK: - Ingest writes

extension MigrationStore {
  /// Starts an ingest run and returns its id.
  ///
  /// - Parameters:
  ///   - inputs: a description of the inputs (JSON text).
  ///   - startedMilliseconds: when it started.
  /// - Returns: the run id.
  /// - Throws: `SQLiteError`.
  public func beginIngestRun(inputs: String, startedMilliseconds: Int64) throws -> Int64 {
    try database.run(
      "INSERT INTO ingest_runs (started_ms, inputs) VALUES (?, ?)",
      binding: startedMilliseconds, inputs)
    return try database.lastInsertRowID
  }

  /// Records the end of an ingest run and its summary.
  ///
  /// - Parameters:
  ///   - id: the run id.
  ///   - finishedMilliseconds: when it finished.
  ///   - summary: the run's summary (JSON text).
  /// - Throws: `SQLiteError`.
  public func finishIngestRun(_ id: Int64, finishedMilliseconds: Int64, summary: String) throws {
    try database.run(
      "UPDATE ingest_runs SET finished_ms = ?, summary = ? WHERE id = ?",
      binding: finishedMilliseconds, summary, id)
  }

  /// Stores a legacy record unless the account already holds the same bytes; a changed record
  /// becomes the account's next version. A quarantine entry at the same file and offset is
  /// removed: that input is read now.
  ///
  /// - Parameters:
  ///   - row: the record.
  ///   - runId: the ingest run storing it.
  ///   - now: the current instant (Unix ms), recorded for accounts seen for the first time.
  /// - Returns: whether it was inserted (and as which version) or already stored.
  /// - Throws: `SQLiteError`.
  public func storeLegacyRecord(_ row: LegacyRecordRow, runId: Int64, now: Int64) throws
    -> LegacyRecordInsertion
  {
    // The input at this position reads now (an older version quarantined what this one keeps,
    // such as a whole response for one masked id, or the file was mended): its quarantine
    // entry no longer stands for anything unread.
    try database.run(
      "DELETE FROM quarantine WHERE source_path = ? AND source_offset = ?",
      binding: row.sourcePath, row.sourceOffset)
    if let existing = try database.firstRow(
      "SELECT id FROM legacy_records WHERE account_id = ? AND content_sha256 = ?",
      binding: row.accountId, row.contentSHA256, decode: { try $0.int64(at: 0) })
    {
      // The same bytes again: nothing new, but a record stored before it had a compact copy
      // (or with one of another version) gets this one.
      if let compact = row.compact { try storeCompactCopy(compact, recordId: existing) }
      return .alreadyStored(id: existing)
    }
    try database.run(
      "INSERT OR IGNORE INTO accounts (account_id, first_ingested_ms) VALUES (?, ?)",
      binding: row.accountId, now)
    let version =
      try database.firstRow(
        "SELECT COALESCE(MAX(version), 0) + 1 FROM legacy_records WHERE account_id = ?",
        binding: row.accountId, decode: { try $0.int(at: 0) }) ?? 1
    try row.raw.withUnsafeBytes { raw in
      try database.run(
        """
        INSERT INTO legacy_records (account_id, version, content_sha256, source_path, source_line,
          source_offset, format, kind, status, environment, captured_ms, bundle_id, shape, raw,
          ingest_run_id, set_aside_count)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        binding: row.accountId, version, row.contentSHA256, row.sourcePath, row.sourceLine,
        row.sourceOffset, row.format, row.kind, row.status, row.environment,
        row.capturedMilliseconds, row.bundleId, row.shape, raw, runId, row.setAside.count)
    }
    let id = try database.lastInsertRowID
    if let compact = row.compact { try storeCompactCopy(compact, recordId: id) }
    for (position, field) in row.setAside.enumerated() {
      try database.run(
        """
        INSERT INTO set_aside_fields (record_id, position, path, reason, detail, excerpt, byte_offset)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """,
        binding: id, position, field.path, field.reason, field.detail, field.excerpt,
        field.byteOffset)
    }
    if let orderId = row.orderId {
      try database.run(
        """
        INSERT OR IGNORE INTO order_seeds (account_id, order_id, record_id, environment)
        VALUES (?, ?, ?, ?)
        """,
        binding: row.accountId, orderId, id, row.environment)
    }
    return .inserted(id: id, version: version)
  }

  /// Whether some usable response (status 0 or 21006) lacks a compact copy of this format:
  /// records stored before schema version 8, or before the compact form last changed.
  ///
  /// - Parameter format: the compact form's current version.
  /// - Returns: `true` when at least one such record exists.
  /// - Throws: `SQLiteError`.
  public func hasResponsesWithoutCompactCopy(format: Int) throws -> Bool {
    try database.firstRow(
      """
      SELECT 1 FROM legacy_records r
      WHERE r.kind = 'response' AND r.status IN (0, 21006) AND NOT EXISTS (
        SELECT 1 FROM compact_responses c WHERE c.record_id = r.id AND c.format = ?)
      LIMIT 1
      """, binding: format
    ) { _ in true } ?? false
  }

  /// Stores a record's compact copy, replacing one of another format version.
  private func storeCompactCopy(_ copy: CompactCopy, recordId: Int64) throws {
    try database.run(
      """
      INSERT INTO compact_responses (record_id, format, body) VALUES (?, ?, ?)
      ON CONFLICT (record_id) DO UPDATE SET format = excluded.format, body = excluded.body
      WHERE format <> excluded.format
      """,
      binding: recordId, copy.format, copy.body)
  }

  /// Links seed ids to an account through the record they came from (idempotent).
  ///
  /// - Parameters:
  ///   - seeds: the ids.
  ///   - accountId: the account.
  ///   - recordId: the legacy record they were found in.
  /// - Throws: `SQLiteError`.
  public func storeSeeds(_ seeds: [SeedRow], accountId: String, recordId: Int64) throws {
    for seed in seeds {
      try database.run(
        """
        INSERT OR IGNORE INTO seeds (account_id, original_transaction_id, record_id, source, environment)
        VALUES (?, ?, ?, ?, ?)
        """,
        binding: accountId, seed.originalTransactionId, recordId, seed.source, seed.environment)
    }
  }

  /// Replaces the old logic's verdicts for a record at one instant.
  ///
  /// - Parameters:
  ///   - rows: the verdicts, one per entitlement key.
  ///   - recordId: the legacy record evaluated.
  ///   - asOfMilliseconds: the instant evaluated.
  /// - Throws: `SQLiteError`.
  public func storeOldEntitlements(
    _ rows: [OldEntitlementRow], recordId: Int64, asOfMilliseconds: Int64
  ) throws {
    try database.run(
      "DELETE FROM old_entitlements WHERE record_id = ? AND as_of_ms = ?", binding: recordId,
      asOfMilliseconds)
    for row in rows {
      try database.run(
        """
        INSERT INTO old_entitlements (record_id, as_of_ms, basis, entitlement_key, kind, status,
          entitled, product_id, expires_ms, grace_period_expires_ms, ownership, expiration_intent,
          auto_renew_status, original_transaction_id, transaction_id, revocation_ms, reason)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
        binding: recordId, row.asOfMilliseconds, row.basis, row.entitlementKey, row.kind,
        row.status,
        row.isEntitled, row.productId, row.expiresMilliseconds, row.gracePeriodExpiresMilliseconds,
        row.ownership, row.expirationIntent, row.autoRenewStatus, row.originalTransactionId,
        row.transactionId, row.revocationMilliseconds, row.reason)
    }
  }

  /// Stores a quarantined input unless the same input was quarantined before.
  ///
  /// - Parameters:
  ///   - row: the input and its reason.
  ///   - runId: the ingest run.
  /// - Returns: whether it was new.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func storeQuarantine(_ row: QuarantineRow, runId: Int64) throws -> Bool {
    try database.run(
      """
      INSERT OR IGNORE INTO quarantine (source_path, source_line, source_offset, content_sha256,
        reason, detail, excerpt, ingest_run_id)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """,
      binding: row.sourcePath, row.sourceLine, row.sourceOffset, row.contentSHA256, row.reason,
      row.detail, row.excerpt, runId)
    return try database.changes > 0
  }
}

extension MigrationStore {
  /// The inputs (JSON) of the most recent ingest of legacy inputs that finished (ids discovered
  /// outside them, in the team table or a notification, are stored through runs of their own,
  /// which do not count).
  ///
  /// - Returns: the inputs, or `nil` when no ingest has finished.
  /// - Throws: `SQLiteError`.
  public func latestFinishedIngestInputs() throws -> String? {
    try database.firstRow(
      """
      SELECT inputs FROM ingest_runs WHERE finished_ms IS NOT NULL
        AND inputs NOT LIKE '{"discovered":%' ORDER BY id DESC LIMIT 1
      """,
      decode: { try $0.string(at: 0) })
  }
}
