import AppStoreServerAPI
import AppStoreSimulator
import Chronology
import Foundation
import Testing

/// The simulator's change feed as Apple runs it: test notifications (Request a Test
/// Notification, Get Test Notification Status) and what an app's notification URL makes the
/// history list, a feed that drops notifications, and Apple's retry schedule. Through the
/// client, against the server on loopback (own-code evidence: the simulator and the client are
/// both this project's; `AppleConformanceTests` has Apple's library drive the same endpoints).
@Suite("Simulator server: the change feed")
struct ServerFeedTests {
  static let day = Timestamp.millisecondsPerDay
  static let world = WorldGenerator().generate(accounts: 70, seed: 8)

  func start(configure: (inout SimulatorConfiguration) -> Void = { _ in }) throws
    -> SimulatorHarness
  {
    try SimulatorHarness.start(world: Self.world, configure: configure)
  }

  /// Every notification of the last 30 days, following the pagination token.
  func history(
    _ harness: SimulatorHarness, type: NotificationType? = nil, onlyFailures: Bool? = nil,
    environment: AppStoreEnvironment = .production
  ) async throws -> [NotificationHistoryItem] {
    var items: [NotificationHistoryItem] = []
    var token: String?
    repeat {
      let page = try await harness.client.notificationHistory(
        NotificationHistoryRequest(
          startDate: harness.now.adding(milliseconds: -30 * Self.day),
          endDate: harness.now.adding(milliseconds: 1), notificationType: type,
          onlyFailures: onlyFailures),
        paginationToken: token, environment: environment)
      items += page.items
      token = page.paginationToken
    } while token != nil
    return items
  }

  @Test(
    "a test notification is sent to a version 2 URL, its status says so, and the history lists it")
  func testNotification() async throws {
    let harness = try start()
    defer { harness.stop() }
    let token = try await harness.client.requestTestNotification(environment: .production)
    let status = try await harness.client.testNotificationStatus(token, environment: .production)
    let payload = try #require(status.notification?.payload)
    #expect(payload.notificationType == .test)
    #expect(payload.data?.bundleId == Self.world.bundleId)
    #expect(status.sendAttempts.map(\.sendAttemptResult) == [.success])
    let listed = try await history(harness, type: .test)
    #expect(listed.map(\.notification.payload.notificationUUID) == [payload.notificationUUID])
    // It appears in the unfiltered history too, in time order.
    let all = try await history(harness)
    #expect(all.contains { $0.notification.payload.notificationType == .test })
    // A token this environment never gave: 4040008.
    await #expect {
      _ = try await harness.client.testNotificationStatus(token, environment: .sandbox)
    } throws: { ($0 as? AppStoreAPIError)?.code == 4_040_008 }
  }

  @Test("without a notification URL: 4040007 for a test, and an empty history")
  func noURL() async throws {
    let harness = try start { $0.notificationURLs = [.production: NotificationURL.none] }
    defer { harness.stop() }
    await #expect {
      _ = try await harness.client.requestTestNotification(environment: .production)
    } throws: { ($0 as? AppStoreAPIError)?.code == 4_040_007 }
    #expect(try await history(harness).isEmpty)
    // The sandbox keeps its version 2 URL.
    _ = try await harness.client.requestTestNotification(environment: .sandbox)
  }

  @Test("a version 1 URL: the test is sent, and the history lists nothing, not even the test")
  func versionOneURL() async throws {
    let harness = try start { $0.notificationURLs = [.production: .version1] }
    defer { harness.stop() }
    let token = try await harness.client.requestTestNotification(environment: .production)
    let status = try await harness.client.testNotificationStatus(token, environment: .production)
    #expect(status.sendAttempts.map(\.sendAttemptResult) == [.success])
    #expect(try await history(harness).isEmpty)
  }

  @Test("a feed that drops notifications leaves out about that share")
  func omission() async throws {
    let full = try start()
    defer { full.stop() }
    let dropping = try start { $0.notificationOmissionRate = 0.5 }
    defer { dropping.stop() }
    let all = Set(try await history(full).compactMap(\.notification.payload.notificationUUID))
    let listed = Set(
      try await history(dropping).compactMap(\.notification.payload.notificationUUID))
    #expect(listed.isSubset(of: all))
    #expect(listed.count > all.count / 4 && listed.count < all.count * 3 / 4)
  }

  @Test(
    "production retries a failed delivery 1, 12, 24, 48 and 72 hours after the previous attempt; the sandbox tries once"
  )
  func retrySchedule() async throws {
    let harness = try start {
      $0.notificationFailureRate = 1
      $0.lateDeliveryShare = 0.5
    }
    defer { harness.stop() }
    let hour = Timestamp.millisecondsPerHour
    let offsets: [Int64] = [0, 1, 13, 37, 85, 157].map { $0 * hour }
    var late = 0
    var lost = 0
    for item in try await history(harness) {
      let attempts = item.sendAttempts
      let first = try #require(attempts.first?.attemptDate)
      #expect(attempts.count <= offsets.count)
      for (number, attempt) in attempts.enumerated() {
        #expect(attempt.attemptDate == first.adding(milliseconds: offsets[number]))
      }
      // The first attempt failed; only a retry can succeed, and nothing follows a success.
      #expect(attempts.dropLast().allSatisfy { $0.sendAttemptResult != .success })
      #expect(attempts.first?.sendAttemptResult != .success)
      if attempts.last?.sendAttemptResult == .success {
        late += 1
      } else if attempts.count == 6 {
        lost += 1
      }
    }
    let failures = try await history(harness, onlyFailures: true)
    #expect(failures.allSatisfy { !$0.sendAttempts.contains { $0.sendAttemptResult == .success } })
    #expect(late > 0 && lost > 0)
    for item in try await history(harness, environment: .sandbox) {
      #expect(item.sendAttempts.count == 1 && item.sendAttempts[0].sendAttemptResult != .success)
    }
  }
}
