import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore
import TestDirectories
import Testing

/// The nightly audit when the change feed misbehaves: an app without a version 2 notification
/// URL, a feed that drops notifications, a notification whose signature is broken, a window the
/// night could not read to its end. Night by night through the loopback simulator, every
/// account either equals the simulator's oracle at that night's clock or is
/// `stale_app_store_data` — never silently wrong — and the run says what it could not see.
///
/// Evidence: the categories come from the oracle (`simulator expected --at`), which shares no
/// code with the comparison or the refresh; what the feed is, and what it lists, from the
/// simulator's own configuration and answers. (The oracle and the simulator are this team's
/// code too, written apart from the tool.)
@Suite("End to end: the audit when the change feed misbehaves")
struct AuditFeedTests {
  /// A world of 220 accounts playing four days past its clock, every event four times as
  /// likely as by default (shared with the other nightly tests).
  static func world() throws -> String {
    try EndToEnd.timelineWorld(seed: 31, accounts: 220, days: 4, rateScale: 4)
  }

  /// Half a day: shorter than the time between two nights, so a night that cannot trust its
  /// feed asks every customer again (the oracle can then be matched account by account).
  static let halfDay = Timestamp.millisecondsPerDay / 2

  /// Runs one night against a simulator configured by `configure`.
  static func night(
    _ number: Int, world: String, scratch: URL, maxDataAge: Int64? = nil,
    maxRequests: Int? = nil,
    configure: @escaping (inout SimulatorConfiguration) -> Void = { _ in },
    adjust: (inout MigrationRunOptions) -> Void = { _ in }
  ) async throws -> (
    night: NightlyAuditTests.Night, outcome: MigrationOutcome, log: [SimulatorRequestLogEntry]
  ) {
    let night = try NightlyAuditTests.night(number, world: world, scratch: scratch)
    let appStore = try EndToEnd.AppStore(world: world, clock: night.clock, configure: configure)
    defer { appStore.stop() }
    var options = try NightlyAuditTests.options(
      world: world, scratch: scratch, night: night, runId: "night-\(number)",
      maxRequests: maxRequests)
    if let maxDataAge { options.refresh.maxDataAgeMilliseconds = maxDataAge }
    adjust(&options)
    let outcome = try await EndToEnd.runner(
      scratch: scratch, appStore: appStore, options: options
    ).run()
    return (night, outcome, appStore.embedded.server.requestLog())
  }

  /// Every account equals the oracle, or is `stale_app_store_data` naming why.
  static func exactOrStale(_ outcome: MigrationOutcome, _ night: NightlyAuditTests.Night) throws
    -> (exact: Int, stale: Int)
  {
    var exact = 0
    var stale = 0
    for comparison in try outcome.run.comparisons() {
      if comparison.category == .staleAppStoreData {
        stale += 1
        #expect(comparison.explanation.contains("due to be asked again"))
        continue
      }
      let problems = NightlyAuditTests.mismatches([comparison], night.expected)
      #expect(problems.isEmpty, "\(problems)")
      exact += 1
    }
    return (exact, stale)
  }

  @Test(
    "an app without a version 2 URL: the feed is absent (4040007), each night sweeps, exits 4, and never claims data current past its fetch"
  )
  func noNotificationURL() async throws {
    let world = try Self.world()
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let noURL: (inout SimulatorConfiguration) -> Void = {
      $0.notificationURLs = [.production: .none, .sandbox: .none]
    }
    var firstWatermarks: [String: Timestamp] = [:]
    for number in 0...2 {
      let (night, outcome, log) = try await Self.night(
        number, world: world, scratch: scratch, maxDataAge: Self.halfDay, configure: noURL)
      let refresh = try #require(outcome.run.summary.refresh)
      #expect(!refresh.feeds.isEmpty)
      for feed in refresh.feeds {
        #expect(feed.state == .absent, "\(feed)")
        #expect(feed.evidence.contains { $0.contains("4040007") }, "\(feed.evidence)")
        #expect(feed.needsAttention)
      }
      // Apple was asked each night (an absent URL may be configured tomorrow).
      #expect(log.contains { $0.endpoint == .requestTestNotification && $0.errorCode == 4_040_007 })
      #expect(outcome.exitStatus == 4, "night \(number)")
      let counts = try Self.exactOrStale(outcome, night)
      #expect(counts.stale == 0, "nothing was left due: every customer was asked again")
      if number == 0 {
        firstWatermarks = refresh.watermarks
      } else {
        // Every customer was swept: its data is as old as tonight, and no older.
        #expect(refresh.feeds.allSatisfy { $0.sweep != nil && $0.swept > 0 })
        #expect((outcome.run.summary.dataAge?.olderThanBound ?? -1) == 0)
        // "Current through" stays where the feed last vouched for it.
        #expect(refresh.watermarks == firstWatermarks, "\(refresh.watermarks)")
      }
    }
  }

  @Test(
    "with the default --max-data-age and a budget, an absent feed leaves the accounts it could not reach stale, never read as current"
  )
  func noNotificationURLWithBudget() async throws {
    let world = try Self.world()
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let noURL: (inout SimulatorConfiguration) -> Void = {
      $0.notificationURLs = [.production: .none, .sandbox: .none]
    }
    _ = try await Self.night(0, world: world, scratch: scratch, configure: noURL)
    // Night 4: data of night 0 is older than three days; ten requests reach few customers.
    let (night, outcome, _) = try await Self.night(
      4, world: world, scratch: scratch, maxRequests: 10, configure: noURL)
    #expect(outcome.refresh.budgetExhausted == "max-requests")
    let counts = try Self.exactOrStale(outcome, night)
    #expect(counts.stale > 0 && counts.exact > 0)
    #expect(outcome.exitStatus == 4)
    let age = try #require(outcome.run.summary.dataAge)
    #expect(age.olderThanBound > 0 && age.oldest != nil)
  }

  @Test(
    "a feed that drops notifications is found by the renewal check, stays unproven, and the sweep keeps every account exact"
  )
  func droppingFeed() async throws {
    let world = try Self.world()
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let dropping: (inout SimulatorConfiguration) -> Void = { $0.notificationOmissionRate = 0.5 }
    var flagged: [Int] = []
    for number in 0...3 {
      let (night, outcome, _) = try await Self.night(
        number, world: world, scratch: scratch, maxDataAge: Self.halfDay, configure: dropping)
      let feeds = outcome.refresh.feeds
      let counts = try Self.exactOrStale(outcome, night)
      #expect(counts.stale == 0)
      if feeds.contains(where: {
        $0.state == .unproven && $0.evidence.contains { $0.contains("without any notification") }
      }) {
        flagged.append(number)
        #expect(outcome.exitStatus == 4)
      }
    }
    // Found on the first night it could be, and unproven from then on.
    #expect(flagged == [1, 2, 3], "flagged on nights \(flagged)")
  }

  @Test(
    "a notification with a broken signature: the valid ones are used, its customer is asked again, and the following nights are exact"
  )
  func brokenSignature() async throws {
    let world = try Self.world()
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    _ = try await Self.night(0, world: world, scratch: scratch)
    // Night 1: the first notification of every history page carries a broken signature.
    let plan = try FaultPlan.parse(faults: "notifications:bad-signature=1", latency: nil)
    let (night, outcome, _) = try await Self.night(1, world: world, scratch: scratch) {
      $0.faults = plan
    }
    let refresh = outcome.refresh
    #expect(refresh.invalidNotifications > 0)
    #expect(refresh.notificationsRead > 0, "the page's valid notifications were used")
    let counts = try Self.exactOrStale(outcome, night)
    #expect(counts.stale == 0)
    // Each is kept with its reason; every stored customer one names was asked again after it
    // was signed (a verified answer decided, never the payload).
    let database = try SQLiteDatabase(
      location: .path(scratch.appendingPathComponent("store.sqlite").path), mode: .readOnly)
    var reasons: [String] = []
    var named = 0
    try database.forEachRow(
      """
      SELECT i.reason, i.signed_ms, c.statuses_fetched_ms FROM invalid_notifications i
      LEFT JOIN customers c ON c.id = i.customer_id
      """
    ) { row in
      reasons.append(try row.string(at: 0))
      guard let fetched = try row.optionalInt64(at: 2) else { return }
      named += 1
      #expect(fetched >= (try row.optionalInt64(at: 1) ?? .max), "a named customer was not asked")
    }
    try database.close()
    #expect(reasons.count == refresh.invalidNotifications)
    #expect(named > 0)
    #expect(reasons.allSatisfy { $0.contains("signature") }, "\(reasons)")
    for number in 2...3 {
      let (night, outcome, _) = try await Self.night(number, world: world, scratch: scratch)
      let counts = try Self.exactOrStale(outcome, night)
      #expect(counts.stale == 0 && outcome.refresh.stillDue == 0, "night \(number)")
    }
  }

  @Test(
    "a window a night could not read to its end is read the next night from where it stopped to now, and that night is exact"
  )
  func unfinishedWindow() async throws {
    let world = try Self.world()
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let small: (inout SimulatorConfiguration) -> Void = { $0.pageSize = 2 }
    _ = try await Self.night(0, world: world, scratch: scratch, configure: small)
    // Night 1 may send three requests: its window stops after a page or two.
    let (_, stopped, _) = try await Self.night(
      1, world: world, scratch: scratch, maxRequests: 3, configure: small)
    #expect(stopped.refresh.feeds.contains { $0.sweep?.contains("could not be read") == true })
    #expect(stopped.exitStatus == 4)
    let database = try SQLiteDatabase(
      location: .path(scratch.appendingPathComponent("store.sqlite").path), mode: .readOnly)
    let left = try database.firstRow(
      "SELECT count(*) FROM notification_feeds WHERE pagination_token IS NOT NULL OR window_start_ms IS NOT NULL"
    ) { try $0.int(at: 0) }
    try database.close()
    #expect((left ?? 0) > 0, "the unfinished window is stored")

    // Night 2 (the default data age: no sweep is needed) finishes it and reads on to now.
    let (night, outcome, _) = try await Self.night(
      2, world: world, scratch: scratch, configure: small)
    let counts = try Self.exactOrStale(outcome, night)
    #expect(counts.stale == 0 && outcome.refresh.stillDue == 0)
    #expect(outcome.refresh.feeds.allSatisfy { $0.sweep == nil }, "\(outcome.refresh.feeds)")
    // Nothing is left unread: every environment's history is read through night 2.
    let store = try MigrationStore(
      path: scratch.appendingPathComponent("store.sqlite").path, now: { 0 })
    defer { try? store.close() }
    for environment in ["Production", "Sandbox"] {
      guard let feed = try store.notificationFeed(environment: environment) else { continue }
      #expect(feed.window == nil)
      #expect(feed.pagedThroughMilliseconds == night.clock.millisecondsSince1970)
    }
  }

  /// The proof fails on two nights: the first sweeps no one (the feed vouched for the data a
  /// day before), the second, more than `--max-data-age` after the last vouched night, sweeps.
  /// Judged by the oracle at each night.
  @Test(
    "a passing failure of the feed's proof sweeps no one while the last vouched night is younger than --max-data-age, every account exact; then the sweep begins"
  )
  func passingProofFailure() async throws {
    let world = try EndToEnd.timelineWorld(seed: 31, accounts: 220, days: 9, rateScale: 4)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    _ = try await Self.night(0, world: world, scratch: scratch)
    // Night 4: the proof of night 0 still holds; the feed vouches through night 4.
    let (_, healthy, _) = try await Self.night(4, world: world, scratch: scratch)
    #expect(healthy.refresh.feeds.allSatisfy { $0.state == .healthy }, "\(healthy.refresh.feeds)")
    // Nights 5 and 8: a proof is due (twelve hours), and the test notification request fails.
    let failing = try FaultPlan.parse(faults: "test-notification:5000000=1", latency: nil)
    let halfDayProofs: (inout MigrationRunOptions) -> Void = {
      $0.refresh.feedProofIntervalMilliseconds = Self.halfDay
    }
    let (night5, passing, _) = try await Self.night(
      5, world: world, scratch: scratch, configure: { $0.faults = failing },
      adjust: halfDayProofs)
    for feed in passing.refresh.feeds {
      #expect(feed.state == .unproven && feed.needsAttention, "\(feed)")
      #expect(feed.sweep != nil && feed.swept == 0, "\(feed)")
    }
    #expect(passing.exitStatus == 4)
    // Every notification was read: the accounts are exact, none stale, none too old.
    let problems = NightlyAuditTests.mismatches(try passing.run.comparisons(), night5.expected)
    #expect(problems.isEmpty, "\(problems.prefix(6))")
    #expect(passing.run.summary.dataAge?.olderThanBound == 0)

    // Night 8: the feed last vouched through night 4, more than three days ago: the sweep asks
    // again every customer not asked since, and the night is exact again.
    let (night8, swept, _) = try await Self.night(
      8, world: world, scratch: scratch, configure: { $0.faults = failing },
      adjust: halfDayProofs)
    #expect(swept.refresh.feeds.contains { $0.swept > 0 }, "\(swept.refresh.feeds)")
    #expect(swept.exitStatus == 4)
    let counts = try Self.exactOrStale(swept, night8)
    #expect(counts.stale == 0)
  }

  /// Customers whose refresh fails night after night must not hold the watermark back for
  /// everyone else. Judged by the store's due queue (which accounts are stale) and the oracle
  /// (every other account).
  @Test(
    "customers whose refresh keeps failing are stale, and they alone: the feed still vouches for every other customer"
  )
  func failingCustomersDoNotAgeTheRest() async throws {
    let world = try Self.world()
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let storePath = scratch.appendingPathComponent("store.sqlite").path
    _ = try await Self.night(0, world: world, scratch: scratch)
    // Nights 1 and 4: the App Store refuses every revision, so each due customer whose history
    // needs a second page fails, night after night.
    let plan = try FaultPlan.parse(faults: "history:refused-revision=1", latency: nil)
    for number in [1, 4] {
      let (night, outcome, _) = try await Self.night(number, world: world, scratch: scratch) {
        $0.faults = plan
        $0.pageSize = 1
      }
      #expect(outcome.refresh.failed > 0, "night \(number)")
      let database = try SQLiteDatabase(location: .path(storePath), mode: .readOnly)
      var stillDue: Set<String> = []
      try database.forEachRow(
        "SELECT a.account_id FROM refresh_queue q JOIN account_customers a ON a.customer_id = q.customer_id"
      ) { stillDue.insert(try $0.string(at: 0)) }
      try database.close()
      let comparisons = try outcome.run.comparisons()
      let stale = Set(comparisons.filter { $0.category == .staleAppStoreData }.map(\.accountId))
      #expect(
        stale == stillDue, "night \(number): \(stale.symmetricDifference(stillDue).prefix(4))")
      let problems = NightlyAuditTests.mismatches(
        comparisons.filter { !stale.contains($0.accountId) }, night.expected)
      #expect(problems.isEmpty, "night \(number): \(problems.prefix(6))")
    }
  }

  /// `--accept-unproven-feed`: a team that knows its URL works takes a feed nothing proves as
  /// it is; a feed found dropping notifications, or an absent one, is never taken. Judged by
  /// the simulator's configuration (what fails, what its feed drops, whether it has a URL) and
  /// the oracle.
  @Test(
    "--accept-unproven-feed takes a feed nothing proves as it is (no sweep, no exit 4 for it); a feed found dropping notifications or an absent one is never accepted"
  )
  func acceptedFeed() async throws {
    let world = try Self.world()
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let accept: (inout MigrationRunOptions) -> Void = {
      $0.refresh.acceptsUnprovenFeed = true
      $0.refresh.feedProofIntervalMilliseconds = Self.halfDay
    }
    _ = try await Self.night(0, world: world, scratch: scratch, adjust: accept)
    // Night 1: the feed drops half the notifications, which the renewal check finds.
    let (_, dropped, _) = try await Self.night(
      1, world: world, scratch: scratch, maxDataAge: Self.halfDay,
      configure: { $0.notificationOmissionRate = 0.5 }, adjust: accept)
    let losing = dropped.refresh.feeds.filter {
      $0.evidence.contains { $0.contains("without any notification") }
    }
    #expect(!losing.isEmpty, "\(dropped.refresh.feeds)")
    for feed in losing {
      #expect(!feed.isAccepted && feed.needsAttention && feed.sweep != nil, "\(feed)")
    }
    #expect(dropped.exitStatus == 4)

    // Night 2: the proof is due and its request fails; the feed itself is whole.
    let failing = try FaultPlan.parse(faults: "test-notification:5000000=1", latency: nil)
    let (night2, accepted, _) = try await Self.night(
      2, world: world, scratch: scratch, maxDataAge: Self.halfDay,
      configure: { $0.faults = failing }, adjust: accept)
    #expect(!accepted.refresh.feeds.isEmpty)
    for feed in accepted.refresh.feeds {
      #expect(feed.state == .unproven && feed.isAccepted && !feed.needsAttention, "\(feed)")
      #expect(feed.sweep == nil && feed.sentence.contains("accepted with --accept-unproven-feed"))
    }
    #expect(accepted.exitStatus == 0)
    let problems = NightlyAuditTests.mismatches(try accepted.run.comparisons(), night2.expected)
    #expect(problems.isEmpty, "\(problems.prefix(6))")

    // Night 3: no notification URL at all (4040007).
    let (_, absent, _) = try await Self.night(
      3, world: world, scratch: scratch,
      configure: { $0.notificationURLs = [.production: .none, .sandbox: .none] }, adjust: accept)
    for feed in absent.refresh.feeds {
      #expect(feed.state == .absent && !feed.isAccepted && feed.needsAttention, "\(feed)")
    }
    #expect(absent.exitStatus == 4)
  }
}
