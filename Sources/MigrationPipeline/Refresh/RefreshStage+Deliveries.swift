import AppStoreServerAPI
import Chronology
import MigrationStore

// MARK: - Deliveries that failed: pending, delivered late, lost

extension RefreshStage {
  /// In production Apple retries a failed delivery up to five more times, this many hours after
  /// the previous attempt; the sandbox tries once.
  static let retryHours: [Int64] = [1, 12, 24, 48, 72]

  /// How long after its first attempt a delivery with fewer attempts than the schedule allows
  /// is taken as final all the same: the whole schedule (157 hours) and a day more, in case
  /// Apple lists an attempt late.
  static let scheduleEndMilliseconds: Int64 =
    (retryHours.reduce(0, +) + 24) * Timestamp.millisecondsPerHour

  /// Where a notification's delivery stands, from its attempts, by Apple's schedule.
  ///
  /// - Parameters:
  ///   - attempts: the attempts the history lists.
  ///   - environment: `Production` or `Sandbox`.
  ///   - clock: the App Store's clock.
  /// - Returns: the state and the number of failed attempts, or `nil` when no attempt failed.
  static func delivery(
    of attempts: [SendAttempt], environment: String, clock: Timestamp
  ) -> (state: LostNotificationRow.Delivery, failed: Int)? {
    let failed = attempts.count { $0.sendAttemptResult != .success }
    guard failed > 0 else { return nil }
    if attempts.contains(where: { $0.sendAttemptResult == .success }) {
      return (.deliveredLate, failed)
    }
    let allowed = environment == AppStoreEnvironment.production.rawValue ? 1 + retryHours.count : 1
    if failed >= allowed { return (.lost, failed) }
    if let first = attempts.compactMap(\.attemptDate).min(),
      clock.milliseconds(since: first) > scheduleEndMilliseconds
    {
      return (.lost, failed)
    }
    return (.pending, failed)
  }

  /// Records the delivery of a notification whose delivery failed at least once (or brings a
  /// pending one up to date).
  func recordDelivery(
    _ item: NotificationHistoryItem, environment: String, customerId: Int64?
  ) throws {
    let payload = item.notification.payload
    guard let uuid = payload.notificationUUID else { return }
    guard
      let (state, failed) = Self.delivery(
        of: item.sendAttempts, environment: environment, clock: appStoreNow())
    else { return }
    let transaction = payload.data?.transaction?.payload
    let renewal = payload.data?.renewalInfo?.payload
    let attempts = item.sendAttempts.compactMap(\.attemptDate).sorted()
    let before = try store.storeLostNotification(
      LostNotificationRow(
        uuid: uuid, environment: environment,
        type: payload.notificationType?.rawValue ?? "unknown", subtype: payload.subtype?.rawValue,
        signedMilliseconds: payload.signedDate?.millisecondsSince1970,
        originalTransactionId: transaction?.originalTransactionId
          ?? renewal?.originalTransactionId,
        transactionId: transaction?.transactionId, customerId: customerId,
        firstAttemptMilliseconds: attempts.first?.millisecondsSince1970,
        lastAttemptMilliseconds: attempts.last?.millisecondsSince1970,
        lastResult: item.sendAttempts.last?.sendAttemptResult?.rawValue,
        signedPayload: item.notification.jws, delivery: state, failedAttempts: failed),
      foundAt: now().millisecondsSince1970)
    guard before == nil || before == .pending, before != state else { return }
    switch state {
    case .lost: summary.lostNotificationsFound += 1
    case .deliveredLate: if before == .pending { summary.deliveredLate += 1 }
    case .pending: break
    }
  }

  /// Follows the environment's pending deliveries: the notifications Apple still listed among
  /// failures from the oldest pending one to now (`onlyFailures`), each brought up to date; a
  /// pending one the listing no longer holds was delivered by a later attempt. The schedule
  /// bounds this: a delivery is final about a week after its first attempt.
  ///
  /// - Parameters:
  ///   - environment: the environment.
  ///   - clock: the App Store's clock.
  func followPendingDeliveries(in environment: AppStoreEnvironment, clock: Timestamp)
    async throws
  {
    let name = environment.rawValue
    let pending = try store.pendingDeliveries(environment: name)
    guard let oldest = pending.compactMap(\.signedMilliseconds).min() else { return }
    let start = max(
      oldest - options.notificationOverlapMilliseconds,
      clock.millisecondsSince1970 - options.reach(environment) + 60_000)
    let end = clock.millisecondsSince1970
    guard start < end else { return }
    let request = NotificationHistoryRequest(
      startDate: Timestamp(millisecondsSince1970: start),
      endDate: Timestamp(millisecondsSince1970: end), onlyFailures: true)
    var listed: Set<String> = []
    var token: String?
    repeat {
      try StopRequest.checkpoint()
      guard reserveRequest() else { return }
      let page: NotificationHistoryResponse
      do {
        page = try await client.notificationHistory(
          request, paginationToken: token, environment: environment)
      } catch {
        if case .unauthorized = error.kind { throw error }
        if case .cancelled = error.kind { throw CancellationError() }
        // Left pending: the next run asks again.
        summary.warnings.append(
          "the \(name) deliveries Apple may still retry could not be followed (\(error)); "
            + "they stay pending")
        return
      }
      summary.failurePages += 1
      // One that failed verification is still listed among failures: it stays pending (its
      // UUID, read without trust, can only keep it from being taken as delivered).
      for item in page.invalidItems {
        if let uuid = item.unverified?.notificationUUID { listed.insert(uuid) }
      }
      try store.writeTransaction {
        for item in page.items {
          if let uuid = item.notification.payload.notificationUUID { listed.insert(uuid) }
          let payload = item.notification.payload
          let transaction = payload.data?.transaction?.payload
          let renewal = payload.data?.renewalInfo?.payload
          let customerId = try store.customer(
            appTransactionId: transaction?.appTransactionId ?? renewal?.appTransactionId,
            orOwningAnyOf: [transaction?.originalTransactionId, renewal?.originalTransactionId]
              .compactMap { $0 })
          try recordDelivery(item, environment: name, customerId: customerId)
        }
      }
      token = page.hasMore ? page.paginationToken : nil
    } while token != nil
    // Listed no more among failures, though the span covers it: a later attempt succeeded.
    for (uuid, signed) in pending where !listed.contains(uuid) && (signed ?? .min) >= start {
      try store.markDeliveredLate(uuid: uuid, now: now().millisecondsSince1970)
      summary.deliveredLate += 1
    }
  }
}
