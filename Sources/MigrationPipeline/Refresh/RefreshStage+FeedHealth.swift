import AppStoreServerAPI
import Chronology
import MigrationReports
import MigrationStore

// MARK: - Proving the change feed

extension RefreshStage {
  /// Proves an environment's change feed when no proof is younger than the proof interval:
  /// asks Apple to send a test notification and what became of it. A test sent by an earlier
  /// run that Apple had not attempted yet is asked about first; one that could not be requested
  /// (or that Apple said has no URL to go to) is requested again on the next run. What Apple
  /// answers is stored with its date, so a proof costs two requests a week.
  ///
  /// - Parameters:
  ///   - environment: the environment.
  ///   - clock: the App Store's clock.
  /// - Returns: whether a test notification was requested by this run.
  @discardableResult
  func proveFeed(_ environment: AppStoreEnvironment, clock: Timestamp) async throws -> Bool {
    let name = environment.rawValue
    var health = try store.feedHealth(environment: name) ?? FeedHealthRow(environment: name)
    if health.testResult == .pending, let token = health.testToken {
      try await checkTest(token, environment: environment, health: &health)
    }
    let instant = clock.millisecondsSince1970
    func isRecent(_ milliseconds: Int64?) -> Bool {
      milliseconds.map { instant - $0 < options.feedProofIntervalMilliseconds && instant >= $0 }
        ?? false
    }
    let isProven = isRecent(health.provenMilliseconds)
    let isPending = health.testResult == .pending && isRecent(health.testRequestedMilliseconds)
    guard !isProven, !isPending else { return false }
    guard reserveRequest() else { return false }
    summary.feedRequests += 1
    do {
      let token = try await client.requestTestNotification(environment: environment)
      health.testRequestedMilliseconds = instant
      health.testToken = token
      health.testUUID = nil
      health.testResult = .pending
      health.testDetail = nil
      health.testSeenMilliseconds = nil
      health.testLookedMilliseconds = nil
      try store.saveFeedHealth(health, now: now().millisecondsSince1970)
      try await checkTest(token, environment: environment, health: &health)
      return true
    } catch let error as AppStoreAPIError {
      if case .unauthorized = error.kind { throw error }
      if case .cancelled = error.kind { throw CancellationError() }
      health.testRequestedMilliseconds = instant
      health.testToken = nil
      health.testUUID = nil
      health.testSeenMilliseconds = nil
      health.testLookedMilliseconds = nil
      if error.errorCode == .serverNotificationURLNotFound {
        health.testResult = .absent
        health.testDetail = "Apple answered \(error.errorCode?.description ?? "4040007")"
      } else {
        health.testResult = .error
        health.testDetail = error.description
      }
    }
    try store.saveFeedHealth(health, now: now().millisecondsSince1970)
    return false
  }

  /// Asks what became of a test notification and records it: pending while Apple has not tried,
  /// else sent — which proves a configured URL, whatever the team's server answered.
  private func checkTest(
    _ token: String, environment: AppStoreEnvironment, health: inout FeedHealthRow
  ) async throws {
    guard reserveRequest() else { return }
    summary.feedRequests += 1
    let status: TestNotificationStatus
    do {
      status = try await client.testNotificationStatus(token, environment: environment)
    } catch {
      if case .unauthorized = error.kind { throw error }
      if case .cancelled = error.kind { throw CancellationError() }
      health.testResult = error.errorCode == .testNotificationNotFound ? .error : .pending
      health.testDetail = error.description
      try store.saveFeedHealth(health, now: now().millisecondsSince1970)
      return
    }
    health.testUUID = status.notification?.payload.notificationUUID ?? health.testUUID
    if status.sendAttempts.isEmpty {
      health.testResult = .pending
      health.testDetail = "Apple has not attempted to send it yet"
    } else {
      let last = status.sendAttempts.last?.sendAttemptResult?.rawValue ?? "unknown"
      let delivered = status.sendAttempts.contains { $0.sendAttemptResult == .success }
      health.testResult = delivered ? .delivered : .failed
      health.testDetail = delivered ? "delivered (SUCCESS)" : "your server did not take it: \(last)"
      health.provenMilliseconds = health.testRequestedMilliseconds
      try await lookForTest(environment: environment, health: &health)
    }
    try store.saveFeedHealth(health, now: now().millisecondsSince1970)
  }

  /// Searches the notification history for a test notification Apple sent (by type, `TEST`):
  /// the history lists only what Apple sends to a version 2 URL, so a test that was sent and is
  /// not listed shows a feed that lists nothing, whatever the test's delivery said.
  private func lookForTest(environment: AppStoreEnvironment, health: inout FeedHealthRow)
    async throws
  {
    guard let requested = health.testRequestedMilliseconds, let uuid = health.testUUID,
      health.testSeenMilliseconds == nil
    else { return }
    let request = NotificationHistoryRequest(
      startDate: Timestamp(
        millisecondsSince1970: requested - options.notificationOverlapMilliseconds),
      endDate: Timestamp(
        millisecondsSince1970: max(requested, appStoreNow().millisecondsSince1970) + 1),
      notificationType: .test)
    var token: String?
    repeat {
      guard reserveRequest() else { return }
      summary.feedRequests += 1
      let page: NotificationHistoryResponse
      do {
        page = try await client.notificationHistory(
          request, paginationToken: token, environment: environment)
      } catch {
        if case .unauthorized = error.kind { throw error }
        if case .cancelled = error.kind { throw CancellationError() }
        // Not searched: the windows of this and later runs may still show it.
        return
      }
      if let found = page.items.first(where: { $0.notification.payload.notificationUUID == uuid }) {
        health.testSeenMilliseconds =
          found.notification.payload.signedDate?.millisecondsSince1970 ?? requested
        return
      }
      token = page.hasMore ? page.paginationToken : nil
    } while token != nil
    health.testLookedMilliseconds = appStoreNow().millisecondsSince1970
  }

  /// Says whether an environment's feed can be trusted tonight, from the stored proof, whether
  /// the test notification appeared in the history, and the renewal check of the span read this
  /// run: every subscription the stored data expected to renew in it (active, auto-renewing,
  /// expiring inside it an hour or more before its end) must have come with a notification —
  /// Apple sends one for every renewal, failed renewal and expiry. Up to one in a hundred may be
  /// missing (Apple may process a renewal late); those customers are due anyway, their state
  /// having run out.
  ///
  /// - Parameters:
  ///   - environment: the environment.
  ///   - reading: what reading its history found.
  ///   - clock: the App Store's clock.
  /// - Returns: the facts, without the sweep.
  func assessFeed(
    _ environment: AppStoreEnvironment, reading: WindowReading, clock: Timestamp
  ) throws -> FeedHealthFacts {
    let name = environment.rawValue
    var health = try store.feedHealth(environment: name) ?? FeedHealthRow(environment: name)
    let instant = clock.millisecondsSince1970
    let interval = options.feedProofIntervalMilliseconds
    let span = "\(AuditFormatting.age(milliseconds: interval))"
    if reading.isComplete, !reading.isResumed, let start = reading.start, let end = reading.end {
      let last = end - options.notificationOverlapMilliseconds
      if start < last {
        let found = try store.renewalCheck(
          environment: name, start: start, end: last,
          tolerance: options.fetchedDataToleranceMilliseconds)
        health.check = FeedHealthRow.Check(
          checkedMilliseconds: instant, startMilliseconds: start, endMilliseconds: last,
          expected: found.expected, missing: found.missing)
        if found.missing > found.expected / 100 {
          health.checkFailedMilliseconds = instant
          health.checkFailedDetail =
            "\(AuditFormatting.count(found.missing)) of \(AuditFormatting.count(found.expected)) "
            + "renewals the stored data expected between \(Self.day(start)) and "
            + "\(Self.day(last)) came without any notification"
        }
      }
    }
    try store.saveFeedHealth(health, now: now().millisecondsSince1970)

    var problems: [String] = []
    var evidence: [String] = []
    // Problems that show the feed losing notifications, not only lacking a proof: never
    // accepted, whatever --accept-unproven-feed says.
    var losses = 0
    let requested = health.testRequestedMilliseconds.map(Self.day) ?? ""
    if health.testResult == .absent {
      return FeedHealthFacts(
        environment: name, state: .absent,
        evidence: [
          "Apple answered the test notification of \(requested) with 4040007: no notification "
            + "URL is configured for \(name), so the notification history lists nothing"
        ])
    }
    if let proven = health.provenMilliseconds, instant - proven < interval {
      evidence.append(
        "a test notification of \(Self.day(proven)) was sent to your URL ("
          + (health.testDetail ?? "sent") + ")")
    } else {
      switch health.testResult {
      case .pending?:
        problems.append(
          "the test notification of \(requested) has not been sent yet; it is asked about again "
            + "on the next run")
      case .error?:
        problems.append(
          "the test notification of \(requested) could not be requested or followed: "
            + (health.testDetail ?? "an error"))
      default:
        problems.append("no test notification proved the feed in the last \(span)")
      }
    }
    if let requestedAt = health.testRequestedMilliseconds, health.testResult != .pending,
      health.testResult != .error
    {
      if let seen = health.testSeenMilliseconds {
        evidence.append("it appeared in the notification history on \(Self.day(seen))")
      } else if health.testLookedMilliseconds != nil {
        losses += 1
        problems.append(
          "the test notification of \(Self.day(requestedAt)) never appeared in the notification "
            + "history, which lists only what Apple sends to a version 2 URL")
      }
    }
    // A feed found dropping notifications stays unproven for a proof interval: the drops a
    // renewal check sees are only the ones it can see.
    if let failed = health.checkFailedMilliseconds, instant - failed < interval, instant >= failed {
      losses += 1
      problems.append(
        (health.checkFailedDetail ?? "renewals came without notifications")
          + (failed == instant ? "" : " (found on \(Self.day(failed)), within the last \(span))"))
    }
    if let check = health.check, check.checkedMilliseconds == instant {
      let allowed = check.expected / 100
      let between =
        "between \(Self.day(check.startMilliseconds)) and \(Self.day(check.endMilliseconds))"
      if check.missing <= allowed, check.expected > 0 {
        evidence.append(
          "\(AuditFormatting.count(check.expected - check.missing)) of "
            + "\(AuditFormatting.count(check.expected)) renewals expected \(between) came with "
            + "a notification")
      }
    }
    if options.acceptsUnprovenFeed, losses > 0 {
      problems.append(
        "--accept-unproven-feed takes a feed nothing proves, not one found losing notifications")
    }
    return FeedHealthFacts(
      environment: name, state: problems.isEmpty ? .healthy : .unproven,
      evidence: problems + evidence,
      provenAt: health.provenMilliseconds.map(Timestamp.init(millisecondsSince1970:)),
      isAccepted: !problems.isEmpty && options.acceptsUnprovenFeed && losses == 0)
  }
}
