import AppStoreServerAPI
import ArgumentParsing
import Entitlements
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore
import Terminal

/// `receipt-migrate link`: sets the team's account token on every purchase still relevant that
/// lacks it or carries another, with Set App Account Token — a dry run unless `--apply`.
struct LinkCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "link",
    abstract: "Set your account ids as appAccountToken on past purchases (dry run by default).",
    discussion: """
      Audits every stored purchase's appAccountToken against your mapping (--tokens or \
      --derive-tokens) and plans, per account, a Set App Account Token for each purchase still \
      relevant whose token is missing or different: owned non-consumables, subscriptions \
      not revoked that are entitled or lapsed within --lapsed-within (365d), non-renewing \
      subscriptions bought within it. Consumables, refunded or revoked purchases and older \
      lapses are skipped unless --include names them; family-shared and ASSIGNED purchases \
      are never written. The plan names the App Store, the counts by reason, what can be \
      undone and the time at Apple's rates. --apply asks Apple again about each customer (one \
      history call with the stored revision) and writes only where the purchase still carries \
      what the plan saw, at Apple's pace (20 per second, 2 in sandbox), journaling each write \
      (planned, sent, confirmed, failed, skipped with a reason); killed, it resumes without \
      sending a write more than once more. --apply needs --yes when a write cannot be undone \
      (the purchase has no token) or reaches Apple's production. --undo RUN_ID restores the \
      tokens that run replaced where the purchase still carries the run's token. --list shows \
      the link runs. Without App Store credentials, --apply and --undo need --simulated or \
      --world DIR. Exits 0 when every write was confirmed or skipped (or none was needed), 2 \
      on a usage error, 3 on a configuration error (credentials missing, another App Store's \
      database, an unknown run), 4 when writes failed or mapping rows were quarantined.
      """
  )

  @OptionGroup var tokens: TokenOptions

  @Flag(help: "Send the planned writes (without it, only the plan is printed).")
  var apply = false

  @Option(
    help: ArgumentHelp(
      "Put back the tokens the link run with this id replaced.", valueName: "run-id"))
  var undo: String?

  @Flag(help: "List the link runs of the database with their writes counted by state.")
  var list = false

  @Flag(
    help: ArgumentHelp(
      "Confirm writes that cannot be undone (a purchase without a token) and writes to "
        + "Apple's production."))
  var yes = false

  @Option(
    help: ArgumentHelp(
      "Widen the plan: consumables, revoked (refunded or revoked purchases), lapsed (every "
        + "lapsed subscription); repeat or separate with commas.", valueName: "kinds"))
  var include: [String] = []

  @Option(
    help: ArgumentHelp(
      "How long ago a subscription may have lapsed, or a non-renewing one been bought, to be "
        + "written (default 365d).", valueName: "duration"))
  var lapsedWithin: String?

  @Flag(help: "Print one JSON object.")
  var json = false

  @Option(help: ArgumentHelp("The most customers in flight at once (1 to 64).", valueName: "n"))
  var concurrency: Int = 8

  @OptionGroup var store: StoreOptions
  @OptionGroup var appStore: AppStoreOptions

  mutating func validate() throws {
    guard (1...64).contains(concurrency) else {
      throw ValidationError("--concurrency must be between 1 and 64, not \(concurrency)")
    }
    let planning = !include.isEmpty || lapsedWithin != nil
    if list {
      guard !apply, undo == nil, tokens.tokens == nil, tokens.deriveTokens == nil, !planning
      else {
        throw ValidationError("--list lists the link runs; it takes no other link flag")
      }
      return
    }
    if undo != nil {
      guard !apply else { throw ValidationError("--undo and --apply cannot be combined") }
      guard tokens.tokens == nil, tokens.deriveTokens == nil, !planning else {
        throw ValidationError(
          "--undo restores what a run replaced; it takes no mapping, --include or --lapsed-within")
      }
    } else if try tokens.source() == nil {
      throw ValidationError("link needs your mapping: --tokens FILE or --derive-tokens UUID")
    }
    _ = try scope()
  }

  /// The plan's scope from `--include` and `--lapsed-within`.
  func scope() throws -> LinkScope {
    var scope = LinkScope()
    if let lapsedWithin {
      scope.lapsedWithinMilliseconds = try DurationArgument.milliseconds(
        lapsedWithin, flag: "--lapsed-within")
    }
    for kind in include.flatMap({ $0.split(separator: ",") }).map({ $0.lowercased() }) {
      switch kind {
      case "consumables", "consumable": scope.includesConsumables = true
      case "revoked": scope.includesRevoked = true
      case "lapsed": scope.lapsedWithinMilliseconds = nil
      default:
        throw ValidationError(
          "--include takes consumables, revoked or lapsed, not \"\(kind)\" (family-shared and "
            + "ASSIGNED purchases are never written: Apple refuses a token for them)")
      }
    }
    return scope
  }

  func run() async throws {
    let storePath = store.path()
    if list {
      let database = try store.openStore(readOnly: true)
      defer { try? database.close() }
      let tallies = try database.linkJournal.tallies()
      print(
        json
          ? LinkRunsRenderer.json(tallies)
          : LinkRunsRenderer.text(tallies, storePath: storePath), terminator: "")
      return
    }
    let lock = try store.lock(command: "link")
    defer { lock.release() }
    let database = try StoreOptions.open(storePath)
    defer { try? database.close() }
    let summary: LinkSummary
    var quarantined = 0
    var missingAppStore: String?
    if let undo {
      summary = try await undoRun(undo, database: database, storePath: storePath)
    } else {
      (summary, quarantined, missingAppStore) = try await applyRun(
        database: database, storePath: storePath)
    }
    print(
      json
        ? LinkSummaryRenderer.json(summary)
        : LinkSummaryRenderer.text(summary, missingAppStore: missingAppStore), terminator: "")
    var problems: [String] = []
    if !summary.failed.isEmpty {
      problems.append(
        "\(summary.failed.count) write(s) failed; each is listed with the App Store's answer. "
          + "Run the same command again to retry them")
    }
    if quarantined > 0 {
      problems.append("\(quarantined) token mapping row(s) quarantined (listed above)")
    }
    if !problems.isEmpty { throw ToolFailure.incomplete(problems.joined(separator: "; ") + ".") }
  }

  // MARK: - Plan and apply

  private func applyRun(database: MigrationStore, storePath: String) async throws -> (
    LinkSummary, Int, String?
  ) {
    guard let source = try tokens.source() else { throw ValidationError("no mapping") }
    let mapping = try await RunFailures.translating {
      try source.load(accounts: try database.accountIds())
    }
    RejectedRows.print(mapping.quarantined)
    // --apply writes only to an App Store configured or asked for; a dry run names the one it
    // would write to when there is one, and plans from the database alone otherwise.
    let connection: AppStoreConnection?
    var missingAppStore: String?
    if apply {
      connection = try appStore.connectAndAnnounce(
        config: store.config, explicitSimulatorFor: "link --apply", storePath: storePath)
    } else {
      let choice = try appStore.choice(config: store.config)
      switch choice {
      case .apple:
        connection = try appStore.connect(choice, storePath: storePath)
      case .embeddedSimulator where appStore.simulatorRequested:
        connection = try appStore.connectAndAnnounce(config: store.config, storePath: storePath)
      case .embeddedSimulator:
        connection = nil
        missingAppStore =
          "--apply needs App Store credentials, or the simulator asked for with --simulated or "
          + "--world DIR."
      }
    }
    defer { connection?.stop() }
    let target = connection.map { LinkTarget($0.connected) }
    let recorded = try await RunFailures.translating { () throws -> AppStoreSource? in
      if let connection {
        return try StoreProvenance.check(
          database, source: connection.connected.source, identity: connection.connected.identity)
      }
      return try StoreProvenance.recorded(in: database)
    }
    let asOf =
      try connection?.connected.clock ?? StoreProvenance.recordedClock(in: database)
      ?? WallClock.now()
    let plan = try await StopSignals.run {
      try await RunFailures.translating {
        try LinkPlanner(store: database, mapping: mapping.mapping, scope: try scope(), asOf: asOf)
          .plan()
      }
    }
    let starter = LinkRunStarter(store: database, now: WallClock.now)
    let open = try await RunFailures.translating { try starter.openApply(target: target) }
    let limits = connection?.connected.client.configuration.rateLimits ?? .appleDefaults
    func summary(dryRun: Bool, runId: String?, writes: [LinkWriteRow], outcome: LinkOutcome)
      -> LinkSummary
    {
      LinkSummary(
        isDryRun: dryRun, kind: .apply, runId: runId, undoesRunId: nil,
        mapping: source.description, accounts: plan.accounts,
        appStore: connection?.connected.source.description, storeAppStore: recorded?.description,
        asOf: plan.asOf, writes: writes, findings: plan.findings, outcome: outcome,
        estimate: LinkEstimate(
          writes: writes.filter(\.state.isPending).map { ($0.environment, $0.customerId) },
          limits: limits))
    }
    let planned =
      try open.map { try database.linkJournal.writes(runId: $0.id) }
      ?? plan.writes.map { LinkRunStarter.row(of: $0, runId: "", at: nil) }
    guard apply, let connection, let target else {
      // A killed apply is finished first by the next --apply; show its writes as they stand.
      return (
        summary(dryRun: true, runId: open?.id, writes: planned, outcome: .init()),
        mapping.quarantined.count, missingAppStore
      )
    }
    try confirm(planned, connection: connection)
    guard
      let run = try await RunFailures.translating({
        try starter.startApply(
          plan: plan, mapping: source.description,
          runId: Self.runId(kind: "link"), target: target)
      })
    else {
      return (
        summary(dryRun: false, runId: nil, writes: planned, outcome: .init()),
        mapping.quarantined.count, nil
      )
    }
    let outcome = try await carryOut(run, connection: connection, storePath: storePath)
    return (
      summary(
        dryRun: false, runId: run.id, writes: try database.linkJournal.writes(runId: run.id),
        outcome: outcome),
      mapping.quarantined.count, nil
    )
  }

  // MARK: - Undo

  private func undoRun(_ applyRunId: String, database: MigrationStore, storePath: String)
    async throws -> LinkSummary
  {
    let starter = LinkRunStarter(store: database, now: WallClock.now)
    // An unknown run is named before anything is started or asked.
    _ = try await RunFailures.translating { try starter.applyRun(applyRunId) }
    let connection = try appStore.connectAndAnnounce(
      config: store.config, explicitSimulatorFor: "link --undo", storePath: storePath)
    defer { connection.stop() }
    let target = LinkTarget(connection.connected)
    let recorded = try await RunFailures.translating {
      try StoreProvenance.check(
        database, source: connection.connected.source, identity: connection.connected.identity)
    }
    let runId = Self.runId(kind: "undo")
    let preview = try await RunFailures.translating {
      try starter.openUndo(of: applyRunId, target: target).map {
        try database.linkJournal.writes(runId: $0.id)
      } ?? starter.undoPlan(of: applyRunId, runId: runId)
    }
    try confirm(preview, connection: connection, irreversible: false)
    func summary(runId: String?, writes: [LinkWriteRow], outcome: LinkOutcome) -> LinkSummary {
      LinkSummary(
        isDryRun: false, kind: .undo, runId: runId, undoesRunId: applyRunId,
        mapping: "undo of \(applyRunId)", accounts: 0,
        appStore: connection.connected.source.description, storeAppStore: recorded?.description,
        writes: writes, outcome: outcome)
    }
    guard
      let run = try await RunFailures.translating({
        try starter.startUndo(of: applyRunId, runId: runId, target: target)
      })
    else {
      let earlier = try database.linkJournal.undoRuns(of: applyRunId).first
      return summary(
        runId: earlier?.id,
        writes: try earlier.map { try database.linkJournal.writes(runId: $0.id) } ?? [],
        outcome: .init())
    }
    let outcome = try await carryOut(run, connection: connection, storePath: storePath)
    return summary(
      runId: run.id, writes: try database.linkJournal.writes(runId: run.id), outcome: outcome)
  }

  // MARK: - Helpers

  /// Carries a journaled run out with its own connection to the store, showing progress.
  private func carryOut(_ run: LinkRunRow, connection: AppStoreConnection, storePath: String)
    async throws -> LinkOutcome
  {
    let stage = LinkStage(
      store: try StoreOptions.open(storePath), client: connection.connected.client,
      concurrency: concurrency, now: WallClock.now, observer: TerminalProgressObserver())
    return try await StopSignals.run {
      try await RunFailures.translating { try await stage.carryOut(run) }
    }
  }

  /// Refuses, without `--yes`, writes that cannot be undone (the purchase has no token, and
  /// Apple cannot remove one) and writes to Apple's production (exit 2).
  private func confirm(
    _ writes: [LinkWriteRow], connection: AppStoreConnection, irreversible: Bool = true
  ) throws {
    guard !yes else { return }
    let pending = writes.filter(\.state.isPending)
    var reasons: [String] = []
    let permanent = pending.count { $0.oldToken == nil }
    if irreversible, permanent > 0 {
      reasons.append(
        "\(permanent) of the \(pending.count) write(s) set a token on a purchase that has none, "
          + "which no undo can take back (Apple cannot remove a token)")
    }
    let production = pending.count {
      AppStoreEnvironment(rawValue: $0.environment) == .production
    }
    if production > 0, connection.writesReachApplesProduction {
      reasons.append(
        "\(production) write(s) would change purchases in Apple's production App Store")
    }
    guard !reasons.isEmpty else { return }
    throw ValidationError(
      reasons.joined(separator: "; ") + ". Review the plan (run without --apply) and add --yes "
        + "to send them")
  }

  /// `link-20251101T000000Z-3f9a`: the kind, then an id made like a comparison run's.
  static func runId(kind: String) -> String {
    "\(kind)-" + MigrationRunner.runId(startedAt: WallClock.now())
  }
}
