import AppStoreServerAPI
import ArgumentParsing
import Entitlements
import Foundation
import MigrationPipeline
import MigrationStore
import Terminal

/// `receipt-migrate link`: sets the team's account token on every purchase that lacks it or
/// carries another, with Set App Account Token — a dry run unless `--apply`.
struct LinkCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "link",
    abstract: "Set your account ids as appAccountToken on past purchases (dry run by default).",
    discussion: """
      Audits every stored purchase's appAccountToken against your mapping (--tokens or \
      --derive-tokens) and plans, per account, a Set App Account Token for each one-time \
      purchase and each subscription's latest purchase whose token is missing or different; \
      a different token is an association leak when it is another account's. Prints the \
      plan and sends nothing unless --apply is given. --apply sends the writes at Apple's \
      pace (20 per second, 2 in sandbox), journals each one in the database (token before \
      and after, time, answer) and can be killed and rerun: the rerun finishes the run \
      without repeating a write. --undo RUN_ID puts back the tokens an apply replaced. \
      Family-shared purchases and ids that are not original transaction ids are refused \
      without being sent. Writing to Apple's production needs --yes as well. Exits 0 when \
      every write was accepted (or none was needed), 2 on a usage error (such as --apply to \
      production without --yes), 3 on a configuration error, 4 when some writes failed.
      """
  )

  @OptionGroup var tokens: TokenOptions

  @Flag(help: "Send the planned writes (without it, only the plan is printed).")
  var apply = false

  @Option(
    help: ArgumentHelp(
      "Put back the tokens the link run with this id replaced.", valueName: "run-id"))
  var undo: String?

  @Flag(help: "Confirm writing to Apple's production App Store (needed with --apply or --undo).")
  var yes = false

  @Flag(help: "Print one JSON object: planned (writes still needed), applied, and every write.")
  var json = false

  @Option(help: ArgumentHelp("The most writes in flight at once (1 to 64).", valueName: "n"))
  var concurrency: Int = 8

  @OptionGroup var store: StoreOptions
  @OptionGroup var appStore: AppStoreOptions

  mutating func validate() throws {
    guard (1...64).contains(concurrency) else {
      throw ValidationError("--concurrency must be between 1 and 64, not \(concurrency)")
    }
    if undo != nil {
      guard !apply else { throw ValidationError("--undo and --apply cannot be combined") }
      guard tokens.tokens == nil, tokens.deriveTokens == nil else {
        throw ValidationError("--undo restores what a run replaced; it takes no mapping")
      }
    } else if try tokens.source() == nil {
      throw ValidationError("link needs your mapping: --tokens FILE or --derive-tokens UUID")
    }
  }

  func run() async throws {
    let lock = try store.lock(command: "link")
    defer { lock.release() }
    let storePath = store.path()
    let database = try StoreOptions.open(storePath)
    defer { try? database.close() }
    let summary: LinkSummary
    var findings: [TokenFinding: Int] = [:]
    if let undo {
      summary = try await undoRun(undo, database: database)
    } else {
      let (planned, counts) = try await applyRun(database: database)
      summary = planned
      findings = counts
    }
    print(
      json
        ? LinkSummaryRenderer.json(summary, findings: findings)
        : LinkSummaryRenderer.text(summary, findings: findings), terminator: "")
    if !summary.failed.isEmpty {
      throw ToolFailure.incomplete(
        "\(summary.failed.count) write(s) failed; each is listed with the App Store's answer. "
          + "Run the same command again to retry them.")
    }
  }

  // MARK: - Apply

  private func applyRun(database: MigrationStore) async throws -> (
    LinkSummary, [TokenFinding: Int]
  ) {
    guard let source = try tokens.source() else { throw ValidationError("no mapping") }
    let mapping = try await RunFailures.translating {
      try source.load(accounts: try database.accountIds())
    }
    RejectedRows.print(mapping.quarantined)
    let plan = try await StopSignals.run {
      try await RunFailures.translating {
        try LinkPlanner(store: database, mapping: mapping.mapping).plan()
      }
    }
    let open = try database.openLinkRun(kind: .apply)
    guard apply else {
      var writes = plan.writes.map { Self.row(of: $0) }
      // A killed apply is finished first by the next --apply; show its writes as they stand.
      if let open { writes = try database.linkWrites(runId: open.id) }
      return (
        LinkSummary(
          isDryRun: true, kind: .apply, runId: open?.id, undoesRunId: nil,
          mapping: source.description, accounts: plan.accounts, writes: writes, applied: 0),
        plan.findings
      )
    }
    let connection = try appStore.connectAndAnnounce(config: store.config)
    defer { connection.stop() }
    let writes =
      try open.map { try database.linkWrites(runId: $0.id) }
      ?? plan.writes.map {
        Self.row(of: $0)
      }
    try confirmProduction(writes, connection: connection)
    let stage = LinkStage(
      store: database, client: connection.connected.client, concurrency: concurrency,
      now: WallClock.now)
    guard
      let run = try stage.openApply(
        plan: plan, mapping: source.description, runId: Self.runId(kind: "link"))
    else {
      return (
        LinkSummary(
          isDryRun: false, kind: .apply, runId: nil, undoesRunId: nil,
          mapping: source.description, accounts: plan.accounts,
          writes: plan.writes.map { Self.row(of: $0) }, applied: 0),
        plan.findings
      )
    }
    let done = try await StopSignals.run {
      try await RunFailures.translating { try await stage.carryOut(run) }
    }
    return (
      LinkSummary(
        isDryRun: false, kind: .apply, runId: run.id, undoesRunId: nil, mapping: run.mapping,
        accounts: plan.accounts, writes: try database.linkWrites(runId: run.id),
        applied: done.applied, confirmedWithoutResending: done.confirmed),
      plan.findings
    )
  }

  // MARK: - Undo

  private func undoRun(_ applyRunId: String, database: MigrationStore) async throws
    -> LinkSummary
  {
    let connection = try appStore.connectAndAnnounce(config: store.config)
    defer { connection.stop() }
    let stage = LinkStage(
      store: database, client: connection.connected.client, concurrency: concurrency,
      now: WallClock.now)
    let runId = Self.runId(kind: "undo")
    let open = try database.openLinkRun(kind: .undo, undoing: applyRunId)
    let preview = try await RunFailures.translating {
      try open.map { try database.linkWrites(runId: $0.id) }
        ?? stage.undoPlan(of: applyRunId, runId: runId)
    }
    try confirmProduction(preview, connection: connection)
    guard let run = try stage.openUndo(of: applyRunId, runId: runId) else {
      let earlier = try database.undoRuns(of: applyRunId).first
      return LinkSummary(
        isDryRun: false, kind: .undo, runId: earlier?.id, undoesRunId: applyRunId,
        mapping: "undo of \(applyRunId)", accounts: 0,
        writes: try earlier.map { try database.linkWrites(runId: $0.id) } ?? [], applied: 0)
    }
    let done = try await StopSignals.run {
      try await RunFailures.translating { try await stage.carryOut(run) }
    }
    return LinkSummary(
      isDryRun: false, kind: .undo, runId: run.id, undoesRunId: applyRunId, mapping: run.mapping,
      accounts: 0, writes: try database.linkWrites(runId: run.id), applied: done.applied,
      confirmedWithoutResending: done.confirmed)
  }

  // MARK: - Helpers

  /// Refuses to write to Apple's production without `--yes` (exit 2); harmless elsewhere.
  private func confirmProduction(_ writes: [LinkWriteRow], connection: AppStoreConnection) throws {
    let production = writes.count {
      $0.state != .refused && $0.state != .applied
        && AppStoreEnvironment(rawValue: $0.environment) == .production
    }
    guard production > 0, connection.writesReachApplesProduction, !yes else { return }
    throw ValidationError(
      "\(production) write(s) would change purchases in Apple's production App Store; review "
        + "the plan (run without --apply) and add --yes to send them")
  }

  private static func row(of write: LinkPlan.Write) -> LinkWriteRow {
    LinkWriteRow(
      runId: "", originalTransactionId: write.purchase.originalTransactionId,
      accountId: write.accountId, customerId: write.customerId,
      environment: write.purchase.environment, isSubscription: write.purchase.isSubscription,
      oldToken: write.purchase.currentToken, newToken: write.newToken,
      state: write.refusal == nil ? .planned : .refused, answer: write.refusal)
  }

  /// `link-20251101T000000Z-3f9a`: the kind, then an id made like a comparison run's.
  static func runId(kind: String) -> String {
    "\(kind)-" + MigrationRunner.runId(startedAt: WallClock.now())
  }
}
