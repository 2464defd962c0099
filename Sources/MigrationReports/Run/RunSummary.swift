import Chronology
import Entitlements

/// The facts of one migration run that a report states besides the comparisons: when it ran,
/// against which App Store, what it read, how long each stage took and what the requests did.
///
/// The pipeline fills it; the report never reads the clock, so every instant is here. Whether
/// account ids are pseudonymised is not a fact of the run but a choice made when rendering
/// (the same run can be reported both ways), so it lives in ``ReportOptions``.
public struct RunSummary: Hashable, Sendable {
  /// The run's id, also the name of its report folder: `20240615T120000Z-7f3a`.
  public var runId: String
  /// The version of receipt-migrate that ran.
  public var toolVersion: String
  /// When the run started.
  public var startedAt: Timestamp
  /// When the run finished.
  public var finishedAt: Timestamp
  /// The comparison instant: both logics were evaluated at it.
  public var asOf: Timestamp
  /// Where the App Store's data came from.
  public var appStore: AppStoreSource
  /// What the run read.
  public var inputs: RunInputs
  /// How long each stage took, in the order the stages ran.
  public var stageDurations: [StageDuration]
  /// What the requests to each App Store Server API endpoint did, in the order given.
  public var requests: [EndpointStatistics]
  /// The file name of the team's entitlement table (`--current-entitlements`), when one was
  /// compared; `nil` when none was.
  public var teamTableFile: String?
  /// The `--fail-on` threshold and whether the run crossed it; `nil` when none was set.
  public var failOn: FailOnThreshold?
  /// What the refresh of the App Store side did, when the run refreshed.
  public var refresh: RefreshFacts?
  /// What changed since the run compared with (the previous finished run of the store, or
  /// `--since`), when there was one.
  public var since: RunChangeCounts?
  /// How many notifications Apple never delivered this run reports.
  public var lostNotifications: Int = 0
  /// How many failed deliveries Apple may still retry when the run ended.
  public var pendingNotifications: Int = 0
  /// Where the tokens of the `appAccountToken` audit came from (a file's name, or the namespace
  /// they were derived in), or `nil` when the run did not audit tokens.
  public var tokenMapping: String?
  /// The command that made the run (`migrate`, `audit`, `compare`), or `nil` when not known.
  public var command: String?
  /// The command line that made the run, with secrets scrubbed; empty when not known.
  public var commandLine: [String] = []
  /// The exit code the run asks for (see the README's exit codes), once known.
  public var exitCode: Int32?
  /// The inputs and settings the run used, each with where it came from.
  public var usedInputs: [UsedInput] = []
  /// Accounts by impact of their primary category: what a list of runs shows without
  /// classifying every account again.
  public var impactCounts: [DiscrepancyCategory.Impact: Int] = [:]
  /// Accounts by impact of their team-table category, when a table was compared.
  public var tableImpactCounts: [DiscrepancyCategory.Impact: Int]?
  /// The share of Apple's per-app rate limits the run's requests were capped at (`--rate-share`),
  /// or `nil` when the run sent none or did not record it.
  public var rateShare: Double?
  /// How old the App Store data it compared is, at ``asOf``; `nil` when not recorded.
  public var dataAge: DataAgeFacts?
  /// Stored responses captured after ``asOf``, which the old side set aside.
  public var responsesSetAside = 0
  /// Accounts with at least one such response.
  public var accountsWithResponsesSetAside = 0
  /// Accounts of the team table the legacy data did not hold, backfilled from the customer ids
  /// the table gave.
  public var tableAccountsAdopted = 0
  /// Accounts of the team table the store does not hold and the run could not compare.
  public var tableOnlyAccounts = 0
  /// App Store customers notifications named that no account holds.
  public var unclaimedCustomers = 0

  /// Creates a run summary.
  ///
  /// - Parameters:
  ///   - runId: the run's id; it names the report folder, so it must be a plain file name.
  ///   - toolVersion: the version of receipt-migrate that ran.
  ///   - startedAt: when the run started.
  ///   - finishedAt: when the run finished.
  ///   - asOf: the comparison instant.
  ///   - appStore: where the App Store's data came from.
  ///   - inputs: what the run read.
  ///   - stageDurations: how long each stage took, in order.
  ///   - requests: request statistics per endpoint.
  ///   - teamTableFile: the team table's file name, when one was compared.
  ///   - failOn: the fail-on threshold and its outcome, when one was set.
  public init(
    runId: String, toolVersion: String, startedAt: Timestamp, finishedAt: Timestamp,
    asOf: Timestamp, appStore: AppStoreSource, inputs: RunInputs,
    stageDurations: [StageDuration] = [], requests: [EndpointStatistics] = [],
    teamTableFile: String? = nil, failOn: FailOnThreshold? = nil
  ) {
    self.runId = runId
    self.toolVersion = toolVersion
    self.startedAt = startedAt
    self.finishedAt = finishedAt
    self.asOf = asOf
    self.appStore = appStore
    self.inputs = inputs
    self.stageDurations = stageDurations
    self.requests = requests
    self.teamTableFile = teamTableFile
    self.failOn = failOn
  }

  /// Whether the run is a nightly audit: its reports are titled as one and lead with what
  /// changed since the last run and how current the App Store data is. A run made by `audit` is
  /// one; a run recorded before the store kept its command is told from what the summary holds
  /// (it refreshed the App Store side of a store an earlier run had compared).
  public var isAudit: Bool { command.map { $0 == "audit" } ?? (refresh != nil && since != nil) }

  /// Whether the team's own entitlement table was compared.
  public var comparedTeamTable: Bool { teamTableFile != nil }

  /// The run's wall time in milliseconds (zero if the instants are out of order).
  public var durationMilliseconds: Int64 { max(0, finishedAt.milliseconds(since: startedAt)) }
}
