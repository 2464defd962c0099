import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Foundation
import MigrationPipeline
import TestDirectories
import Testing

/// Apple's retry schedule, night by night: a notification whose delivery failed is pending
/// while Apple may retry it (in production five more times, 1, 12, 24, 48 and 72 hours after
/// the previous attempt; sandbox tries once), delivered late when a retry succeeds, lost when
/// its last attempt fails. The judge is the simulator's own `onlyFailures` answer and the send
/// attempts it lists (this team's code, written apart from the refresh).
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
}
