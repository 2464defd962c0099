import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import CryptoSupport
import Entitlements
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore
import Synchronization
import TestDirectories
import Testing

/// The nightly audit, night by night against a world whose timeline goes on past its clock,
/// through the real loopback simulator served at each night's clock.
///
/// The expectations come from outside the tool's code: categories and the team table from the
/// simulator's oracle at each night (`simulator expected --at`), the requests from the
/// simulator's own request log, the customers that changed from the world's dated facts, the
/// lost notifications from the simulator's answer to `onlyFailures`. (The oracle and the
/// simulator are this team's code too, written apart from the comparison and the refresh.)
@Suite("End to end: the nightly audit")
struct NightlyAuditTests {
  static let nights = 3

  /// A night's expectations and the team table of that night, written to `scratch`.
  struct Night {
    var clock: Timestamp
    var expected: [String: (category: String, table: String)]
    var tablePath: String
  }

  static func night(_ number: Int, world: String, scratch: URL) throws -> Night {
    let setup = try SimulatorSetup.prepare(worldDirectory: world)
    let clock = try EndToEnd.night(number, of: world)
    let files = GeneratedArchive(world: setup.world).expectations(at: clock)
    let tablePath = scratch.appendingPathComponent("table-\(number).csv").path
    try Data(files.table.utf8).write(to: URL(fileURLWithPath: tablePath))
    var expected: [String: (String, String)] = [:]
    for line in files.expected.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      expected[fields[0]] = (fields[1], fields[2])
    }
    return Night(clock: clock, expected: expected, tablePath: tablePath)
  }

  static func options(
    world: String, scratch: URL, night: Night, runId: String, failOn: String? = nil,
    maxRequests: Int? = nil
  ) throws -> MigrationRunOptions {
    var options = try EndToEnd.options(
      world: world, reports: scratch.appendingPathComponent("r"), runId: runId)
    options.currentEntitlementsPath = night.tablePath
    options.asOf = nil
    options.refresh.maxRequests = maxRequests
    options.failOn = try failOn.map { try FailOnPolicy(parsing: $0) }
    return options
  }

  static func mismatches(
    _ comparisons: [AccountComparison], _ expected: [String: (category: String, table: String)]
  ) -> [String] {
    comparisons.compactMap { comparison in
      let want = expected[comparison.accountId]
      let table = comparison.tableCategory?.rawValue ?? ""
      guard want?.category != comparison.category.rawValue || want?.table != table else {
        return nil
      }
      return "\(comparison.accountId): expected \(want?.category ?? "?")/\(want?.table ?? "?"), "
        + "got \(comparison.category.rawValue)/\(table): \(comparison.explanation)"
    }
  }

  /// The customers (by `appTransactionId`) whose dated facts changed in `(from, to]`: a
  /// transaction purchased, upgraded, revoked or given back, or a renewal event.
  static func changedCustomers(_ world: World, from: Timestamp, to: Timestamp) -> Set<String> {
    var changed: Set<String> = []
    for customer in world.customers {
      let transactions = customer.transactions.contains {
        let modified = $0.lastModified(at: to)
        return modified > from && modified <= to
      }
      let renewals = customer.renewals.contains { timeline in
        timeline.events.contains { $0.at > from && $0.at <= to }
      }
      if transactions || renewals { changed.insert(customer.appTransactionId) }
    }
    return changed
  }

  @Test(
    "three nights: categories equal the oracle's, requests the refresh floor, changes exactly the accounts that moved, every lost notification listed once"
  )
  func threeNights() async throws {
    let world = try EndToEnd.timelineWorld(seed: 31, accounts: 220, days: 4, rateScale: 4)
    let worldValue = try SimulatorSetup.prepare(worldDirectory: world).world
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let storePath = scratch.appendingPathComponent("store.sqlite").path
    var previous: Night?
    var lastFetched: [String: Timestamp] = [:]
    var reportedLost: [String] = []
    var pendingAtEnd: [String] = []
    var sawKinds: Set<ChangeKind> = []
    for number in 0...Self.nights {
      let night = try Self.night(number, world: world, scratch: scratch)
      let appStore = try EndToEnd.AppStore(world: world, clock: night.clock)
      defer { appStore.stop() }
      let outcome = try await EndToEnd.runner(
        scratch: scratch, appStore: appStore,
        options: try Self.options(
          world: world, scratch: scratch, night: night, runId: "night-\(number)",
          failOn: "new:table:any")
      ).run()

      // Every account as the oracle says, primary and table.
      let problems = Self.mismatches(try outcome.run.comparisons(), night.expected)
      #expect(problems.isEmpty, "night \(number): \(problems.prefix(8))")
      #expect(try outcome.run.comparisons().count == night.expected.count)

      let customers = try EndToEnd.storedCustomers(storePath)
      if number == 0 {
        for key in Set(customers.byId.values) { lastFetched[key] = night.clock }
        #expect(outcome.run.summary.since == nil)
        previous = night
        reportedLost += outcome.run.lostNotifications.map(\.uuid)
        continue
      }
      let prior = try #require(previous)

      // What changed since the previous night: exactly the accounts whose category moved.
      var moved: Set<String> = []
      var movedTable: Set<String> = []
      for (account, now) in night.expected {
        guard let before = prior.expected[account] else { continue }
        if before.category != now.category { moved.insert(account) }
        if before.table != now.table { movedTable.insert(account) }
      }
      let changes = outcome.run.changes
      #expect(Set(changes.filter { $0.primary != nil }.map(\.accountId)) == moved)
      #expect(Set(changes.filter { $0.table != nil }.map(\.accountId)) == movedTable)
      for change in changes {
        if let primary = change.primary {
          sawKinds.insert(primary.kind)
          #expect(primary.from == prior.expected[change.accountId]?.category)
          #expect(primary.to == night.expected[change.accountId]?.category)
        }
      }
      #expect(outcome.run.summary.since?.previousRunId == "night-\(number - 1)")
      // --fail-on new:table:any: crossed exactly when an account entered a table finding.
      let entered = night.expected.contains { account, now in
        now.table != "match" && prior.expected[account].map { $0.table == "match" } ?? true
      }
      #expect(outcome.run.summary.failOn?.isCrossed == entered, "night \(number)")

      // The requests: the backfill sent none; the refresh exactly its floor.
      let refresh = outcome.refresh
      #expect(outcome.backfill.historyPages == 0 && outcome.backfill.statusCalls == 0)
      let log = appStore.embedded.server.requestLog()
      #expect(
        log.count
          == refresh.notificationPages + refresh.failurePages + refresh.feedRequests
          + refresh.transactionLookups + refresh.historyPages + refresh.statusCalls,
        "night \(number): the simulator answered \(log.count) requests")
      // The feed was proven on night 0; within the week nothing is asked again.
      #expect(refresh.feedRequests == 0)
      #expect(refresh.feeds.allSatisfy { $0.state == .healthy }, "\(refresh.feeds)")
      let answers = EndToEnd.cleanAnswers(log, byId: customers.byId)
      #expect(log.allSatisfy { $0.status == 200 }, "night \(number): a request failed")
      #expect(answers.statuses.values.allSatisfy { $0 == 1 }, "a customer was asked twice")
      #expect(Set(answers.history.keys) == Set(answers.statuses.keys))
      #expect(refresh.stillDue == 0 && refresh.failed == 0)
      // Each customer asked: one page per 20 transactions added or changed since it was last
      // asked (at least one page), counted from the world's dated facts.
      for (key, pages) in answers.history {
        let since = lastFetched[key] ?? prior.clock
        let customer = try #require(worldValue.customers.first { $0.appTransactionId == key })
        let changedCount = customer.transactions.count {
          $0.purchaseDate <= night.clock && $0.lastModified(at: night.clock) > since
        }
        #expect(pages == max(1, (changedCount + 19) / 20), "\(key): \(pages) history pages")
        lastFetched[key] = night.clock
      }
      // No change missed: every stored customer whose facts changed since it was last asked
      // was asked tonight.
      let stored = Set(customers.byId.values)
      for key in stored {
        let since = lastFetched[key] ?? prior.clock
        guard since < night.clock else { continue }
        let changed = Self.changedCustomers(worldValue, from: since, to: night.clock)
        #expect(!changed.contains(key), "\(key) changed but was not asked")
      }

      // Lost notifications: each reported once.
      for lost in outcome.run.lostNotifications {
        #expect(!reportedLost.contains(lost.uuid), "\(lost.uuid) reported twice")
        reportedLost.append(lost.uuid)
      }
      #expect(outcome.run.summary.lostNotifications == outcome.run.lostNotifications.count)
      pendingAtEnd = outcome.run.pendingNotifications.map(\.uuid)
      previous = night
    }
    #expect(sawKinds.contains(.newFinding) || sawKinds.contains(.categoryChanged))

    // Every notification Apple never delivered in the nights played was reported: the
    // simulator's own onlyFailures answer over the same span.
    let last = try EndToEnd.night(Self.nights, of: world)
    let appStore = try EndToEnd.AppStore(world: world, clock: last)
    defer { appStore.stop() }
    var undelivered: [String] = []
    for environment in [AppStoreEnvironment.production, .sandbox] {
      var token: String?
      repeat {
        let page = try await appStore.connected.client.notificationHistory(
          NotificationHistoryRequest(
            startDate: try EndToEnd.night(0, of: world).adding(
              milliseconds: -Timestamp.millisecondsPerHour),
            endDate: last, onlyFailures: true),
          paginationToken: token, environment: environment)
        undelivered += page.items.compactMap(\.notification.payload.notificationUUID)
        token = page.hasMore ? page.paginationToken : nil
      } while token != nil
    }
    // What Apple still lists as never delivered is what the tool reported lost, or holds as
    // pending (Apple may retry it yet); nothing it reported lost was delivered after all.
    #expect(Set(reportedLost).union(pendingAtEnd) == Set(undelivered))
    #expect(Set(reportedLost).isDisjoint(with: pendingAtEnd))
    #expect(!undelivered.isEmpty, "the world should lose some notifications")
  }

  @Test(
    "a night whose budget runs out leaves the rest stale_app_store_data; the next night catches up")
  func budget() async throws {
    let world = try EndToEnd.timelineWorld(seed: 31, accounts: 220, days: 4, rateScale: 4)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let storePath = scratch.appendingPathComponent("store.sqlite").path
    for number in [0, 2, 3] {
      let night = try Self.night(number, world: world, scratch: scratch)
      let appStore = try EndToEnd.AppStore(world: world, clock: night.clock)
      defer { appStore.stop() }
      // Night 2 comes two days after night 0 and may spend only six requests.
      let budget = number == 2 ? 6 : nil
      let outcome = try await EndToEnd.runner(
        scratch: scratch, appStore: appStore,
        options: try Self.options(
          world: world, scratch: scratch, night: night, runId: "night-\(number)",
          maxRequests: budget)
      ).run()
      let log = appStore.embedded.server.requestLog()
      if let budget {
        #expect(outcome.refresh.budgetExhausted == "max-requests")
        #expect(log.count <= budget, "\(log.count) requests against a budget of \(budget)")
        #expect(outcome.refresh.stillDue > 0)
        // The stale accounts are exactly those linked to a customer still due.
        let database = try SQLiteDatabase(location: .path(storePath), mode: .readOnly)
        var stillDue: Set<String> = []
        try database.forEachRow(
          "SELECT a.account_id FROM refresh_queue q JOIN account_customers a ON a.customer_id = q.customer_id"
        ) { stillDue.insert(try $0.string(at: 0)) }
        try database.close()
        let stale = Set(
          try outcome.run.comparisons().filter { $0.category == .staleAppStoreData }.map(
            \.accountId))
        #expect(stale == stillDue)
        #expect(outcome.exitStatus == 4)
        for comparison in try outcome.run.comparisons() where !stale.contains(comparison.accountId)
        {
          let problems = Self.mismatches([comparison], night.expected)
          #expect(problems.isEmpty, "\(problems)")
        }
        for comparison in try outcome.run.comparisons() where stale.contains(comparison.accountId) {
          #expect(comparison.tableCategory == .staleAppStoreData)
          #expect(comparison.explanation.contains("due to be asked again"))
        }
      } else {
        #expect(outcome.refresh.stillDue == 0)
        let problems = Self.mismatches(try outcome.run.comparisons(), night.expected)
        #expect(problems.isEmpty, "night \(number): \(problems.prefix(8))")
      }
    }
  }

  /// Cancels the run when the simulator has answered a number of requests.
  final class Interrupter: Sendable {
    private let state = Mutex<(answered: Int, task: Task<MigrationOutcome, any Error>?)>((0, nil))
    let after: Int

    init(after: Int) { self.after = after }

    func attach(_ task: Task<MigrationOutcome, any Error>) {
      state.withLock { $0.task = task }
    }

    func answered() {
      state.withLock { state in
        state.answered += 1
        if state.answered == after { state.task?.cancel() }
      }
    }
  }

  @Test(
    "a refresh interrupted after n requests and run again ends as an uninterrupted one",
    arguments: [1, 3, 8])
  func interrupted(afterRequests count: Int) async throws {
    let world = try EndToEnd.timelineWorld(seed: 31, accounts: 220, days: 4, rateScale: 4)
    var stores: [URL] = []
    // Both stores are compared after the loop, so both are removed when the test ends.
    defer { stores.forEach(TemporaryDirectory.remove) }
    var outcomes: [MigrationOutcome] = []
    var requests: [Int] = []
    for interrupt in [false, true] {
      let scratch = try EndToEnd.scratch()
      stores.append(scratch)
      let first = try Self.night(0, world: world, scratch: scratch)
      let initial = try EndToEnd.AppStore(world: world, clock: first.clock)
      _ = try await EndToEnd.runner(
        scratch: scratch, appStore: initial,
        options: try Self.options(world: world, scratch: scratch, night: first, runId: "night-0")
      ).run()
      initial.stop()

      let night = try Self.night(3, world: world, scratch: scratch)
      let interrupter = Interrupter(after: count)
      let appStore = try EndToEnd.AppStore(world: world, clock: night.clock) { configuration in
        if interrupt { configuration.requestLog = { _ in interrupter.answered() } }
      }
      defer { appStore.stop() }
      let options = try Self.options(
        world: world, scratch: scratch, night: night, runId: "night-3")
      if interrupt {
        let task = Task {
          try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options).run()
        }
        interrupter.attach(task)
        await #expect(throws: CancellationError.self) { try await task.value }
      }
      outcomes.append(
        try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options).run())
      requests.append(appStore.embedded.server.statistics().totalRequests)
    }
    let verdicts = try outcomes.map { outcome in
      try outcome.run.comparisons().map {
        "\($0.accountId) \($0.category) \($0.tableCategory?.rawValue ?? "")"
      }
    }
    #expect(verdicts[1] == verdicts[0])
    #expect(
      try EndToEnd.storedRows(stores[1].appendingPathComponent("store.sqlite").path)
        == EndToEnd.storedRows(stores[0].appendingPathComponent("store.sqlite").path))
    #expect(outcomes[1].refresh.stillDue == 0)
    let repeated = requests[1] - requests[0]
    #expect(repeated >= 0 && repeated <= 16, "\(repeated) requests were repeated")
  }

  @Test("a pagination token that expired while the run was stopped restarts its window")
  func expiredToken() async throws {
    let world = try EndToEnd.timelineWorld(seed: 31, accounts: 220, days: 4, rateScale: 4)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let first = try Self.night(0, world: world, scratch: scratch)
    let initial = try EndToEnd.AppStore(world: world, clock: first.clock)
    _ = try await EndToEnd.runner(
      scratch: scratch, appStore: initial,
      options: try Self.options(world: world, scratch: scratch, night: first, runId: "night-0")
    ).run()
    initial.stop()

    // Two notifications a page, tokens valid for eight seconds (room for a loaded machine
    // between two pages); the run stops when the second page is answered (the first page's
    // token is stored before the second is asked for).
    let night = try Self.night(3, world: world, scratch: scratch)
    let interrupter = Interrupter(after: 2)
    let appStore = try EndToEnd.AppStore(world: world, clock: night.clock) { configuration in
      configuration.pageSize = 2
      configuration.behaviour.notificationTokenLifetime = .seconds(8)
      configuration.requestLog = { entry in
        if entry.endpoint == .notificationHistory { interrupter.answered() }
      }
    }
    defer { appStore.stop() }
    let options = try Self.options(world: world, scratch: scratch, night: night, runId: "night-3")
    let task = Task {
      try await EndToEnd.runner(scratch: scratch, appStore: appStore, options: options).run()
    }
    interrupter.attach(task)
    await #expect(throws: CancellationError.self) { try await task.value }
    try await Task.sleep(for: .milliseconds(8500))

    let outcome = try await EndToEnd.runner(
      scratch: scratch, appStore: appStore, options: options
    ).run()
    #expect(outcome.refresh.windowRestarts >= 1)
    #expect(outcome.refresh.stillDue == 0)
    #expect(outcome.refresh.warnings.isEmpty, "\(outcome.refresh.warnings)")
    let problems = Self.mismatches(try outcome.run.comparisons(), night.expected)
    #expect(problems.isEmpty, "\(problems.prefix(8))")
    let expired = appStore.embedded.server.requestLog().filter { $0.errorCode == 4_000_017 }
    #expect(expired.count >= 1, "the stored token should have expired")
  }

  @Test(
    "a stored revision the App Store refuses (4000005) twice is given up for one walk of the whole history"
  )
  func refusedRevision() async throws {
    let world = try EndToEnd.timelineWorld(seed: 31, accounts: 220, days: 4, rateScale: 4)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let storePath = scratch.appendingPathComponent("store.sqlite").path
    let first = try Self.night(0, world: world, scratch: scratch)
    let initial = try EndToEnd.AppStore(world: world, clock: first.clock)
    _ = try await EndToEnd.runner(
      scratch: scratch, appStore: initial,
      options: try Self.options(world: world, scratch: scratch, night: first, runId: "night-0")
    ).run()
    initial.stop()
    // Every stored revision becomes one the App Store does not accept.
    let database = try SQLiteDatabase(location: .path(storePath), mode: .readWriteCreate)
    try database.run("UPDATE customers SET history_revision = 'bm90IGEgcmV2aXNpb24'")
    try database.close()

    let night = try Self.night(2, world: world, scratch: scratch)
    let appStore = try EndToEnd.AppStore(world: world, clock: night.clock)
    defer { appStore.stop() }
    let outcome = try await EndToEnd.runner(
      scratch: scratch, appStore: appStore,
      options: try Self.options(world: world, scratch: scratch, night: night, runId: "night-2")
    ).run()
    #expect(outcome.refresh.refreshed > 0)
    #expect(outcome.refresh.revisionRestarts == outcome.refresh.refreshed)
    #expect(outcome.refresh.stillDue == 0 && outcome.refresh.failed == 0)
    // Each refused revision is asked once more before the walk starts over.
    let refused = appStore.embedded.server.requestLog().filter { $0.errorCode == 4_000_005 }
    #expect(refused.count == 2 * outcome.refresh.refreshed)
    #expect(outcome.refresh.revisionRefusals == refused.count)
    let problems = Self.mismatches(try outcome.run.comparisons(), night.expected)
    #expect(problems.isEmpty, "\(problems.prefix(8))")
  }

  @Test(
    "an App Store that refuses every revision fails each due customer after three refusals, with the reason, and the night ends"
  )
  func alwaysRefusedRevision() async throws {
    let world = try EndToEnd.timelineWorld(seed: 31, accounts: 220, days: 4, rateScale: 4)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let first = try Self.night(0, world: world, scratch: scratch)
    let initial = try EndToEnd.AppStore(world: world, clock: first.clock)
    _ = try await EndToEnd.runner(
      scratch: scratch, appStore: initial,
      options: try Self.options(world: world, scratch: scratch, night: first, runId: "night-0")
    ).run()
    initial.stop()

    // One transaction a page: a walk of the whole history carries a revision from its second
    // page on, which this App Store refuses too.
    let night = try Self.night(1, world: world, scratch: scratch)
    let plan = try FaultPlan.parse(faults: "history:refused-revision=1", latency: nil)
    let appStore = try EndToEnd.AppStore(world: world, clock: night.clock) {
      $0.faults = plan
      $0.pageSize = 1
    }
    defer { appStore.stop() }
    let outcome = try await EndToEnd.runner(
      scratch: scratch, appStore: appStore,
      options: try Self.options(world: world, scratch: scratch, night: night, runId: "night-1")
    ).run()
    let refresh = outcome.refresh
    #expect(refresh.due > 0)
    // A customer whose whole history fits one page is refreshed by the walk from the start;
    // every other one fails after its third refusal.
    #expect(refresh.failed > 0 && refresh.failed + refresh.refreshed == refresh.due)
    #expect(refresh.stillDue == refresh.failed)
    #expect(refresh.revisionRestarts == refresh.due)
    #expect(refresh.revisionRefusals == 2 * refresh.refreshed + 3 * refresh.failed)
    let refused = appStore.embedded.server.requestLog().filter { $0.errorCode == 4_000_005 }
    #expect(refused.count == refresh.revisionRefusals)
    #expect(outcome.exitStatus == 4)
    let stale = try outcome.run.comparisons().filter { $0.category == .staleAppStoreData }
    #expect(!stale.isEmpty)
    #expect(
      stale.allSatisfy {
        $0.explanation.contains("refused its history revision (4000005) 3 times")
      },
      "\(stale.first?.explanation ?? "")")
  }
}
