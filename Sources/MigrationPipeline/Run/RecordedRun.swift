import Entitlements
import MigrationReports

/// A comparison run recorded in the store: its summary and the counts — not the comparisons
/// themselves, which a million accounts could not hold, nor a list of its accounts. The store
/// keeps each account's classification; the comparisons are computed again from the store when
/// a report or a check needs them (``comparisons()``).
public struct RecordedRun: Sendable {
  /// The run's summary, as reports show it and as the store keeps it.
  public var summary: RunSummary
  /// Every account, counted: what the headline shows.
  public var statistics: RunStatistics
  /// Rows of the team table that were rejected (line and reason); empty when none was read.
  public var rejectedTableRows: [(line: Int, reason: String)]
  /// The accounts whose category changed since the run compared with.
  public var changes: [AccountChange]
  /// The notifications Apple never delivered that this run reports.
  public var lostNotifications: [LostNotification]
  /// The failed deliveries Apple may still retry when the run ended.
  public var pendingNotifications: [LostNotification] = []
  /// The accounts only in the team table, not compared.
  public var tableOnlyAccounts: [String] = []
  /// The App Store customers no account claims.
  public var unclaimedCustomers: [UnclaimedCustomer] = []

  /// What the run's report shows besides its comparisons.
  public var context: RunContext {
    var context = RunContext(
      changes: changes, lostNotifications: lostNotifications,
      pendingNotifications: pendingNotifications)
    context.tableOnlyAccounts = tableOnlyAccounts
    context.unclaimedCustomers = unclaimedCustomers
    return context
  }
  /// Rows of the token mapping file that could not be used (file, line and reason).
  public var quarantinedTokenRows: [AccountTokenMappingFile.QuarantinedRow]
  private let load: @Sendable () throws -> [AccountComparison]

  /// A run whose comparisons are computed again by `load` when asked for.
  ///
  /// - Parameters:
  ///   - summary: the summary.
  ///   - statistics: every account, counted.
  ///   - rejectedTableRows: the team table's rejected rows.
  ///   - changes: the accounts whose category changed since the run compared with.
  ///   - lostNotifications: the notifications never delivered that the run reports.
  ///   - quarantinedTokenRows: the token mapping's rows that could not be used.
  ///   - load: computes every comparison again.
  public init(
    summary: RunSummary, statistics: RunStatistics,
    rejectedTableRows: [(line: Int, reason: String)] = [], changes: [AccountChange] = [],
    lostNotifications: [LostNotification] = [],
    quarantinedTokenRows: [AccountTokenMappingFile.QuarantinedRow] = [],
    load: @escaping @Sendable () throws -> [AccountComparison]
  ) {
    self.summary = summary
    self.statistics = statistics
    self.rejectedTableRows = rejectedTableRows
    self.changes = changes
    self.lostNotifications = lostNotifications
    self.quarantinedTokenRows = quarantinedTokenRows
    self.load = load
  }

  /// A run of comparisons in memory.
  ///
  /// - Parameters:
  ///   - summary: the summary.
  ///   - comparisons: the comparisons.
  ///   - rejectedTableRows: the team table's rejected rows.
  public init(
    summary: RunSummary, comparisons: [AccountComparison],
    rejectedTableRows: [(line: Int, reason: String)] = [], changes: [AccountChange] = [],
    lostNotifications: [LostNotification] = [],
    quarantinedTokenRows: [AccountTokenMappingFile.QuarantinedRow] = []
  ) {
    self.init(
      summary: summary, statistics: RunStatistics(comparisons),
      rejectedTableRows: rejectedTableRows,
      changes: changes, lostNotifications: lostNotifications,
      quarantinedTokenRows: quarantinedTokenRows, load: { comparisons })
  }

  /// Every account's comparison, by account id, computed again from the store (or given in
  /// memory): for checks that look at every account, never for reports, which stream.
  ///
  /// - Throws: `SQLiteError`, or a stored value that cannot be read back.
  public func comparisons() throws -> [AccountComparison] {
    try load().sorted { $0.accountId.utf8.lexicographicallyPrecedes($1.accountId.utf8) }
  }

  /// Accounts whose ids could not be resolved.
  public var unresolvedAccounts: Int { statistics.count(.unresolved) }

  /// Accounts whose App Store data could not be brought up to date (the refresh's budget was
  /// spent, or it failed): the next run continues with them.
  public var staleAccounts: Int { statistics.count(.staleAppStoreData) }

  /// The change feeds that leave the run unfinished: not healthy, and not accepted.
  public var feedsNeedingAttention: [FeedHealthFacts] {
    summary.refresh?.feeds.filter(\.needsAttention) ?? []
  }

  /// The exit status the run asks for: 1 when the `--fail-on` threshold was crossed, else 4
  /// when inputs were quarantined or accepted as partial (fields set aside), team-table or
  /// token-mapping rows rejected, accounts left unresolved or stale, a change feed not healthy,
  /// or a `new:` selector could not be decided, else 0.
  public var exitStatus: Int32 {
    if summary.failOn?.isCrossed == true { return 1 }
    return incompleteReasons.isEmpty ? 0 : 4
  }

  /// Why the run is incomplete (exit 4), one phrase each: what it could not see or use, with
  /// counts; empty when nothing is.
  public var incompleteReasons: [String] {
    var reasons: [String] = []
    if staleAccounts > 0 {
      reasons.append(
        "\(staleAccounts) account(s) stale_app_store_data (their App Store data could not be "
          + "brought up to date"
          + (summary.refresh.map { refresh in
            refresh.stillDue > 0 ? ": \(refresh.stillDue) customer(s) still due" : ""
          } ?? "") + ")")
    }
    if unresolvedAccounts > 0 {
      reasons.append("\(unresolvedAccounts) account(s) unresolved")
    }
    if summary.inputs.recordsQuarantined > 0 {
      reasons.append("\(summary.inputs.recordsQuarantined) legacy record(s) quarantined")
    }
    if summary.inputs.recordsPartial > 0 {
      reasons.append(
        "\(summary.inputs.recordsPartial) legacy record(s) partial (fields set aside)")
    }
    if !rejectedTableRows.isEmpty {
      reasons.append("\(rejectedTableRows.count) entitlement table row(s) rejected")
    }
    if !quarantinedTokenRows.isEmpty {
      reasons.append("\(quarantinedTokenRows.count) token mapping row(s) quarantined")
    }
    for feed in feedsNeedingAttention {
      reasons.append(
        "the \(feed.environment) change feed is \(feed.state.rawValue)"
          + (feed.evidence.first.map { " (\($0))" } ?? "")
          + (summary.dataAge.map {
            "; App Store data is read as of the instant it holds through, the oldest "
              + ($0.oldest?.iso8601 ?? "unrecorded")
          } ?? ""))
    }
    if let unevaluated = summary.failOn?.unevaluated, !unevaluated.isEmpty {
      reasons.append(
        "--fail-on \(unevaluated.joined(separator: ",")) could not be decided (the run compared "
          + "with used other inputs: "
          + (summary.since?.inputDifferences.joined(separator: "; ") ?? "") + ")")
    }
    return reasons
  }
}
