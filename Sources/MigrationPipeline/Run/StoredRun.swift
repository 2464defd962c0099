import Entitlements
import MigrationReports
import MigrationStore

/// A finished run read back from the store, recomputable without the network: `report` rebuilds
/// its report from it and `explain` shows one of its accounts.
///
/// The comparisons are computed again from the stored inputs with the run's recipe (instant,
/// catalogue, team table); the store also keeps the classification the run made, so a
/// recomputation can say how many accounts classify differently now (when a later backfill
/// brought new data).
public struct StoredRun: Sendable {
  /// The run's stored row.
  public var row: RunRow
  /// What the run compared.
  public var recipe: RunRecipe
  /// The run's summary as its report showed it.
  public var summary: RunSummary

  /// Reads a run.
  ///
  /// - Parameters:
  ///   - store: the store.
  ///   - id: the run id, or `nil` for the most recent run.
  /// - Returns: the run.
  /// - Throws: ``RunRecipe/Failure`` when there is no such run or it never finished;
  ///   `SQLiteError`.
  public static func load(from store: MigrationStore, id: String?) throws -> StoredRun {
    guard let row = try store.runLedger.run(id) else {
      throw RunRecipe.Failure(
        description: id.map { "the database \(store.path) has no run \($0)" }
          ?? "the database \(store.path) has no run yet; run receipt-migrate migrate first")
    }
    guard let text = row.summary else {
      throw RunRecipe.Failure(
        description:
          "the run \(row.id) did not finish (it was interrupted before its comparisons were "
          + "recorded); run receipt-migrate migrate again")
    }
    return StoredRun(
      row: row, recipe: try RunRecipe.read(row), summary: try RunSummaryCodec.decode(text))
  }

  /// Every account's comparison, computed again from the store.
  ///
  /// - Parameters:
  ///   - store: the store.
  ///   - observer: where progress goes.
  /// - Returns: the comparisons, by account id.
  /// - Throws: `SQLiteError`, or a stored value that cannot be read back.
  public func comparisons(store: MigrationStore, observer: (any ProgressObserver)? = nil) throws
    -> [AccountComparison]
  {
    try CompareStage(
      store: store, options: try recipe.compareOptions(store: store, runId: row.id),
      observer: observer
    ).run()
  }

  /// One account's comparison, computed again from the store.
  ///
  /// - Parameters:
  ///   - accountId: the account.
  ///   - store: the store.
  /// - Returns: the comparison, or `nil` when the store has no such account.
  /// - Throws: `SQLiteError`, or a stored value that cannot be read back.
  public func comparison(of accountId: String, store: MigrationStore) throws -> AccountComparison? {
    guard try store.hasAccount(accountId) else { return nil }
    return try CompareStage(
      store: store, options: try recipe.compareOptions(store: store, runId: row.id)
    ).compare(accountId: accountId)
  }

  /// Every account computed again from the store a chunk at a time, keeping none: how each
  /// classifies now, left in a TEMP table of `store`'s connection for a report streamed with
  /// ``source(outline:store:)``, and the accounts that classify differently than when the run
  /// was made.
  ///
  /// - Parameters:
  ///   - store: the store; the report must be written through the same connection.
  ///   - observer: where progress goes.
  /// - Returns: where the report finds the categories, and the changed account ids in the
  ///   store's order (by their bytes).
  /// - Throws: `SQLiteError`, or a stored value that cannot be read back.
  public func recount(store: MigrationStore, observer: (any ProgressObserver)? = nil) throws
    -> (outline: StoredComparisons.Outline, changed: [String])
  {
    // A list, not a `Set`: ids equal only up to normalization are two accounts here too. The
    // accounts no longer stored and those compared are never the same bytes.
    var changed = try store.classifiedAccountsNoLongerStored(runId: row.id)
    try store.resetRecountedClassifications()
    try CompareStage(
      store: store, options: try recipe.compareOptions(store: store, runId: row.id),
      observer: observer
    ).run { chunk in
      guard let first = chunk.first?.accountId, let last = chunk.last?.accountId else { return }
      let recorded = try store.comparisons(runId: row.id, from: first, through: last)
      try store.appendRecountedClassifications(
        chunk.map { ($0.accountId, $0.category.rawValue) })
      // The chunk and the stored rows are both in the store's order of ids (bytes), so they are
      // matched by walking them together. A dictionary keyed by id would take two ids that
      // differ only in Unicode normalization for one account.
      var next = 0
      for comparison in chunk {
        let id = AccountKey(comparison.accountId)
        while next < recorded.count, AccountKey(recorded[next].accountId) < id { next += 1 }
        let stored =
          next < recorded.count && AccountKey(recorded[next].accountId) == id
          ? recorded[next] : nil
        if stored != MigrationRunner.row(comparison) { changed.append(comparison.accountId) }
      }
    }
    return (.recounted, changed.sorted { AccountKey($0) < AccountKey($1) })
  }

  /// The run's accounts as a report streams them: computed again from the store, a chunk at a
  /// time, with the run's instant, catalogue and table.
  ///
  /// - Parameters:
  ///   - outline: where each account's category comes from: ``recount(store:observer:)``'s,
  ///     or the run's own classifications.
  ///   - store: the store, open while the report is written.
  ///   - observer: where the progress of writing goes.
  /// - Returns: the source.
  /// - Throws: `SQLiteError`, or a catalogue that cannot be read.
  public func source(
    outline: StoredComparisons.Outline, store: MigrationStore,
    observer: (any ProgressObserver)? = nil
  ) throws -> StoredComparisons {
    try StoredComparisons(
      stage: CompareStage(
        store: store, options: try recipe.compareOptions(store: store, runId: row.id)),
      outline: outline, observer: observer)
  }

  /// Writes the run's report into `<reports>/<run id>/` and points `latest` at it, with every
  /// account as it classifies now.
  ///
  /// When the store still holds exactly the accounts the run classified, the report is written
  /// in one pass, in the order of the run's stored classifications, each account checked
  /// against what the run stored as it is written. Only if one classifies differently (a later
  /// backfill changed the store, or another version of the tool classifies differently) does
  /// that pass stop, with no file kept, and the report is written as before: every account
  /// classified again (``recount(store:observer:)``), then the report in that order. An
  /// unchanged store thus costs one comparison of every account instead of two; a changed one
  /// costs the first pass up to the first changed account on top.
  ///
  /// - Parameters:
  ///   - store: the store; read only.
  ///   - reportsDirectory: the folder that holds the run folders.
  ///   - options: rendering choices.
  ///   - observer: where the progress of each pass goes.
  /// - Returns: the run folder, and the accounts that classify differently now than when the
  ///   run was made, in the store's order (by their bytes).
  /// - Throws: `ReportError`, `SQLiteError`, or a stored value that cannot be read back.
  public func writeReport(
    store: MigrationStore, reportsDirectory: String, options: ReportOptions,
    observer: (any ProgressObserver)? = nil
  ) throws -> (directory: String, changed: [String]) {
    var context = try context(store: store)
    if summary.isAudit {
      context.trend = try RunTrend.points(
        of: row.id, in: store, reportsDirectory: reportsDirectory)
    }
    // fixes.csv in the shape of the table the run compared, while its file is where it was.
    var options = options
    options.teamTableFormat =
      options.teamTableFormat ?? TeamTableFormat.read(path: recipe.teamTablePath)
    let sameAccounts =
      try store.classifiedAccountsNoLongerStored(runId: row.id).isEmpty
      && store.classifiedAccountCount(runId: row.id) == store.accountCount()
    if sameAccounts {
      do {
        let directory = try ReportWriter.writeRun(
          summary: summary,
          source: UnchangedRunComparisons(
            comparisons: try source(outline: .storedRun(row.id), store: store, observer: observer),
            store: store, runId: row.id),
          context: context, reportsDirectory: reportsDirectory, options: options)
        return (directory, [])
      } catch is UnchangedRunComparisons.Changed {
        // Written again below, in the order of how every account classifies now.
      }
    }
    let counted = try recount(store: store, observer: observer)
    let directory = try ReportWriter.writeRun(
      summary: summary,
      source: try source(outline: counted.outline, store: store, observer: observer),
      context: context, reportsDirectory: reportsDirectory, options: options)
    return (directory, counted.changed)
  }

  /// How the run before this one classified an account, for `explain`.
  ///
  /// - Parameters:
  ///   - accountId: the account.
  ///   - store: the store.
  /// - Returns: the facts, or `nil` when this is the store's first finished run.
  /// - Throws: `SQLiteError`.
  public func since(of accountId: String, store: MigrationStore) throws -> ExplainRenderer.Since? {
    let earlier =
      try summary.since.flatMap { try store.runLedger.run($0.previousRunId) }
      ?? store.runLedger.baseline(before: row, recipeKey: row.recipeKey)
    guard let earlier else { return nil }
    let categories = try store.comparisonCategories(runId: earlier.id, accountId: accountId)
    return ExplainRenderer.Since(
      runId: earlier.id, category: categories?.category, tableCategory: categories?.tableCategory)
  }

  /// What the run's report shows besides the comparisons: the accounts whose category changed
  /// since the run it was compared with (from both runs' stored classifications), the lost
  /// notifications it reported, and — as the store holds them now, like the comparisons of a
  /// report written again — the accounts only in its team table and the App Store customers no
  /// account claims. The deliveries that were pending when the run ended are not kept, so a
  /// report written again gives only their count.
  ///
  /// - Parameter store: the store.
  /// - Returns: the context.
  /// - Throws: `SQLiteError`.
  public func context(store: MigrationStore) throws -> RunContext {
    let difference = try RunDifference.of(
      run: row, since: summary.since?.previousRunId, store: store)
    var context = RunContext(
      changes: difference?.changes ?? [],
      lostNotifications: try MigrationRunner.lostNotifications(reportedBy: row.id, store: store))
    if recipe.teamTableFile != nil {
      context.tableOnlyAccounts = try store.tableOnlyAccounts(runId: row.id).map(\.accountId)
    }
    context.unclaimedCustomers = try MigrationRunner.unclaimedCustomers(store: store)
    return context
  }

}
