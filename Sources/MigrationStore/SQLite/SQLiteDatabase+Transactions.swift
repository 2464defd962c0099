import CSQLite

extension SQLiteDatabase {
  /// The savepoint name for nested transactions. SQLite resolves a savepoint name to the most
  /// recent one of that name, and nesting is strictly last-in first-out, so one name serves all
  /// depths.
  private static let savepointName = "receipt_migrate_nested"

  /// Runs `body` in a transaction: committed if it returns, rolled back if anything throws.
  ///
  /// Called inside another transaction (this one's or one begun with `execute("BEGIN")`), it
  /// becomes a `SAVEPOINT`: a throwing body undoes only its own changes, and the error reaches
  /// the outer body, which may catch it and carry on. `kind` only applies to the outermost
  /// transaction; a savepoint takes the locks of the transaction around it.
  ///
  /// The function throws rather than rethrows because `BEGIN` and `COMMIT` fail on their own,
  /// most often with `SQLITE_BUSY` when another process holds the write lock past the timeout.
  ///
  /// - Parameters:
  ///   - kind: How the outermost transaction takes its locks; `.immediate` for anything that
  ///     writes.
  ///   - body: The work; it uses this database.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws, after rolling back; or `SQLiteError` when beginning,
  ///   committing or releasing fails (a failed commit is rolled back, so nothing half-done
  ///   remains).
  public func transaction<Result>(
    _ kind: TransactionKind = .deferred, _ body: () throws -> Result
  ) throws -> Result {
    if try isInTransaction {
      return try savepoint(body)
    }
    try run(kind.beginStatement)
    let result: Result
    do {
      result = try body()
      try run("COMMIT")
    } catch {
      rollBackAfterFailure(of: "ROLLBACK")
      throw error
    }
    return result
  }

  private func savepoint<Result>(_ body: () throws -> Result) throws -> Result {
    try run("SAVEPOINT \(Self.savepointName)")
    let result: Result
    do {
      result = try body()
    } catch {
      rollBackAfterFailure(of: "ROLLBACK TO \(Self.savepointName)")
      // ROLLBACK TO keeps the savepoint open; RELEASE removes it without undoing anything else.
      rollBackAfterFailure(of: "RELEASE \(Self.savepointName)")
      throw error
    }
    try run("RELEASE \(Self.savepointName)")
    return result
  }

  /// Runs a rollback statement while another error is on its way out.
  ///
  /// The error in flight is the one worth reporting: it says why the work stopped. SQLite may
  /// already have rolled the whole transaction back on its own (after `SQLITE_FULL`, an I/O
  /// error or an interrupt), in which case there is nothing to roll back and the statement is
  /// skipped. A rollback that still fails leaves SQLite to roll back when the connection closes,
  /// and its failure would only hide the original cause, so it is deliberately not thrown.
  private func rollBackAfterFailure(of statement: String) {
    guard let handle = connection.handle, sqlite3_get_autocommit(handle) == 0 else {
      return
    }
    do {
      try run(statement)
    } catch {
      // Intentionally dropped, for the reason above: the caller is already throwing the cause.
    }
  }
}
