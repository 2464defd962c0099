import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Foundation
import MigrationPipeline
import MigrationReports
import MigrationStore
import TestDirectories
import Testing

/// Apple's retry schedule, night by night: a notification whose delivery failed is pending
/// while Apple may retry it (in production five more times, 1, 12, 24, 48 and 72 hours after
/// the previous attempt; sandbox tries once), delivered late when a retry succeeds, lost when
/// its last attempt fails; `explain` names an account's lost and pending ones. The judges are
/// the simulator's own `onlyFailures` answer and the send attempts it lists, and its oracle for
/// every night's categories (this team's code, written apart from the refresh and the
/// comparison).
@Suite("End to end: Apple's retry schedule")
struct DeliveryScheduleTests {
  @Test(
    "pending until Apple's last attempt, then lost or delivered late; each lost one reported once, --fail-on lost_notifications gates on them"
  )
  func schedule() async throws {
    let world = try EndToEnd.timelineWorld(seed: 31, accounts: 220, days: 9, rateScale: 4)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    // The first refresh reads the history from the migration's fetches on, less the overlap.
    let start = try EndToEnd.night(0, of: world).adding(
      milliseconds: -Timestamp.millisecondsPerHour)
    var reportedLost: [String] = []
    var sawPending = false
    var deliveredLate = 0
    for number in [0, 2, 5, 9] {
      let night = try NightlyAuditTests.night(number, world: world, scratch: scratch)
      let appStore = try EndToEnd.AppStore(world: world, clock: night.clock) {
        $0.notificationFailureRate = 0.3
        $0.lateDeliveryShare = 0.5
      }
      defer { appStore.stop() }
      let outcome = try await EndToEnd.runner(
        scratch: scratch, appStore: appStore,
        options: try NightlyAuditTests.options(
          world: world, scratch: scratch, night: night, runId: "night-\(number)",
          failOn: "lost_notifications")
      ).run()
      let problems = NightlyAuditTests.mismatches(try outcome.run.comparisons(), night.expected)
      #expect(problems.isEmpty, "night \(number): \(problems.prefix(6))")
      try Self.explainNames(outcome.run, runId: "night-\(number)", scratch: scratch)
      let lost = outcome.run.lostNotifications.map(\.uuid)
      let pending = outcome.run.pendingNotifications.map(\.uuid)
      deliveredLate += outcome.refresh.deliveredLate
      sawPending = sawPending || !pending.isEmpty
      for uuid in lost {
        #expect(!reportedLost.contains(uuid), "\(uuid) reported twice")
      }
      reportedLost += lost
      // --fail-on lost_notifications: crossed exactly on the nights that report one.
      #expect(outcome.run.summary.failOn?.isCrossed == !lost.isEmpty, "night \(number)")
      #expect(outcome.run.summary.pendingNotifications == pending.count)

      // What Apple lists as not delivered (yet): the lost ones reported so far and tonight's
      // pending ones, nothing else; the attempts say which are final.
      var undelivered: [String: (environment: AppStoreEnvironment, failed: Int)] = [:]
      for environment in [AppStoreEnvironment.production, .sandbox] {
        var token: String?
        repeat {
          let page = try await appStore.connected.client.notificationHistory(
            NotificationHistoryRequest(
              startDate: start, endDate: night.clock.adding(milliseconds: 1), onlyFailures: true),
            paginationToken: token, environment: environment)
          for item in page.items {
            guard let uuid = item.notification.payload.notificationUUID else { continue }
            undelivered[uuid] = (environment, item.sendAttempts.count)
          }
          token = page.hasMore ? page.paginationToken : nil
        } while token != nil
      }
      #expect(Set(reportedLost).union(pending) == Set(undelivered.keys), "night \(number)")
      #expect(Set(reportedLost).isDisjoint(with: pending))
      for uuid in reportedLost {
        guard let listed = undelivered[uuid] else { continue }
        #expect(
          listed.failed == (listed.environment == .production ? 6 : 1),
          "\(uuid) reported lost after \(listed.failed) attempt(s) in \(listed.environment)")
      }
      for uuid in pending {
        let listed = try #require(undelivered[uuid])
        #expect(listed.environment == .production && listed.failed < 6)
      }
    }
    #expect(sawPending, "some deliveries should still be retried on a night")
    #expect(deliveredLate > 0, "some retries should succeed")
    #expect(!reportedLost.isEmpty, "some notifications should be lost for good")
  }

  /// A broken signature on the listing of failures must not turn a pending delivery into a
  /// delivered one. Judged by the simulator's own `onlyFailures` answer without faults.
  @Test(
    "a pending delivery the failures listing shows with a broken signature stays pending, never taken as delivered late"
  )
  func pendingWithBrokenSignature() async throws {
    let world = try EndToEnd.timelineWorld(seed: 31, accounts: 220, days: 9, rateScale: 4)
    let scratch = try EndToEnd.scratch()
    defer { TemporaryDirectory.remove(scratch) }
    let failing: (inout SimulatorConfiguration) -> Void = {
      $0.notificationFailureRate = 0.3
      $0.lateDeliveryShare = 0.5
    }
    var pendingBefore = 0
    for number in [0, 2, 3] {
      let night = try NightlyAuditTests.night(number, world: world, scratch: scratch)
      // Night 3: one notification a page, each with a broken signature — the window's pages
      // and the listing of failures alike.
      let plan = try FaultPlan.parse(faults: "notifications:bad-signature=1", latency: nil)
      let appStore = try EndToEnd.AppStore(world: world, clock: night.clock) {
        failing(&$0)
        if number == 3 {
          $0.faults = plan
          $0.pageSize = 1
        }
      }
      defer { appStore.stop() }
      let outcome = try await EndToEnd.runner(
        scratch: scratch, appStore: appStore,
        options: try NightlyAuditTests.options(
          world: world, scratch: scratch, night: night, runId: "night-\(number)")
      ).run()
      if number == 2 { pendingBefore = outcome.run.pendingNotifications.count }
      if number == 3 { #expect(outcome.refresh.failurePages > 0) }
    }
    #expect(pendingBefore > 0, "some deliveries should be pending after night 2")

    // The judge: the simulator without faults, at night 3, lists what Apple has not delivered.
    let night = try EndToEnd.night(3, of: world)
    let judge = try EndToEnd.AppStore(world: world, clock: night, configure: failing)
    defer { judge.stop() }
    var undelivered: Set<String> = []
    for environment in [AppStoreEnvironment.production, .sandbox] {
      var token: String?
      repeat {
        let page = try await judge.connected.client.notificationHistory(
          NotificationHistoryRequest(
            startDate: night.adding(milliseconds: -10 * Timestamp.millisecondsPerDay),
            endDate: night.adding(milliseconds: 1), onlyFailures: true),
          paginationToken: token, environment: environment)
        for item in page.items
        where !item.sendAttempts.contains(where: { $0.sendAttemptResult == .success }) {
          if let uuid = item.notification.payload.notificationUUID { undelivered.insert(uuid) }
        }
        token = page.hasMore ? page.paginationToken : nil
      } while token != nil
    }
    let database = try SQLiteDatabase(
      location: .path(scratch.appendingPathComponent("store.sqlite").path), mode: .readOnly)
    defer { try? database.close() }
    var late: Set<String> = []
    try database.forEachRow(
      "SELECT notification_uuid FROM lost_notifications WHERE delivery = 'delivered_late'"
    ) { late.insert(try $0.string(at: 0)) }
    #expect(late.isDisjoint(with: undelivered), "\(late.intersection(undelivered).prefix(4))")
  }

  /// `explain` of an account whose customer a lost or pending notification is about names it:
  /// the lost one with the run that reported it, the pending one as not to be replayed yet.
  static func explainNames(_ run: RecordedRun, runId: String, scratch: URL) throws {
    let store = try MigrationStore(
      path: scratch.appendingPathComponent("store.sqlite").path, readOnly: true, now: { 0 })
    defer { try? store.close() }
    let stored = try StoredRun.load(from: store, id: runId)
    let failed =
      run.lostNotifications.map { ($0, "lost (reported by run \(runId), ") }
      + run.pendingNotifications.map { ($0, "pending (Apple may still retry it") }
    for (notification, state) in failed {
      guard let account = notification.accounts.first,
        let comparison = try stored.comparison(of: account, store: store)
      else { continue }
      let deliveries = try LostNotificationListings.ofAccount(account, store: store)
      #expect(deliveries.contains { $0.uuid == notification.uuid }, "\(account)")
      let text = ExplainRenderer.render(comparison, lostNotifications: deliveries)
      let line = text.split(separator: "\n").last { $0.contains(notification.uuid) } ?? ""
      #expect(line.contains(state), "explain \(account): \(line)")
    }
  }
}
