import AppStoreServerAPI
import Chronology
import MigrationStore

// MARK: - The change feed

extension RefreshStage {
  /// How often one run reads a window again from its start because Apple no longer accepted
  /// its pagination token, before it leaves the window for the next run.
  static let maximumWindowRestarts = 3

  /// Reads the notification history of one environment from where the store last read it to
  /// now, queueing every customer a notification names and recording the notifications Apple
  /// never delivered. Each page is stored with the customers it named and the next page's token
  /// in one transaction, so a killed read resumes from the next page.
  ///
  /// - Parameters:
  ///   - environment: the environment.
  ///   - earliestFetch: when the earliest stored data of the environment was fetched, or `nil`
  ///     when some customer's fetch instant is unknown (stored before schema version 4).
  ///   - clock: the App Store's clock: the window ends here.
  func readNotifications(
    in environment: AppStoreEnvironment, earliestFetch: Int64?, clock: Timestamp
  ) async throws {
    let name = environment.rawValue
    let reach = options.reach(environment)
    // A minute inside Apple's limit, so a small disagreement of clocks is not a refusal.
    let oldestAllowed = clock.millisecondsSince1970 - reach + 60_000
    var feed: NotificationFeedRow
    var start: Int64
    let stored = try store.notificationFeed(environment: name)
    if let stored {
      feed = stored
      start = stored.pagedThroughMilliseconds - options.notificationOverlapMilliseconds
    } else {
      // First refresh of this environment: everything since the earliest fetch is unread.
      let from = earliestFetch ?? Int64.min
      feed = NotificationFeedRow(
        environment: name, pagedThroughMilliseconds: max(from, oldestAllowed),
        watermarkMilliseconds: max(from, oldestAllowed), window: nil)
      start = from
      if earliestFetch == nil {
        summary.warnings.append(
          "the store does not record when some \(name) customers were fetched (stored before "
            + "schema version 4): every \(name) customer with an entitled or time-bounded state "
            + "is asked again once")
      }
    }
    if feed.window == nil {
      if start < oldestAllowed {
        if earliestFetch != nil || stored != nil {
          summary.warnings.append(
            "the \(name) data was last brought up to date on "
              + "\(Timestamp(millisecondsSince1970: max(start, 0)).iso8601.prefix(10)), further back than "
              + "Apple keeps notifications (\(reach / Timestamp.millisecondsPerDay) days): every "
              + "\(name) customer with an entitled or time-bounded state is asked again")
        }
        try enqueueWholeEnvironment(name, clock: clock)
        start = oldestAllowed
      }
      let end = clock.millisecondsSince1970
      // Nothing was sent since the last window ended: re-reading its overlap would tell nothing.
      guard start < end, stored.map({ end > $0.pagedThroughMilliseconds }) ?? true else {
        try store.saveNotificationFeed(feed, now: now().millisecondsSince1970)
        return
      }
      feed.window = NotificationFeedRow.Window(
        startMilliseconds: start, endMilliseconds: end, paginationToken: nil, pages: 0)
      try store.saveNotificationFeed(feed, now: now().millisecondsSince1970)
    }
    var restarts = 0
    while var window = feed.window {
      try StopRequest.checkpoint()
      guard reserveRequest() else { return }
      let request = NotificationHistoryRequest(
        startDate: Timestamp(millisecondsSince1970: window.startMilliseconds),
        endDate: Timestamp(millisecondsSince1970: window.endMilliseconds))
      let page: NotificationHistoryResponse
      do {
        page = try await client.notificationHistory(
          request, paginationToken: window.paginationToken, environment: environment)
      } catch {
        if case .unauthorized = error.kind { throw error }
        if case .cancelled = error.kind { throw CancellationError() }
        if error.errorCode == .paginationTokenExpired || error.errorCode == .invalidPaginationToken,
          window.paginationToken != nil
        {
          restarts += 1
          guard restarts <= Self.maximumWindowRestarts else {
            try unreadable(
              name,
              because: "its pagination tokens kept expiring before the next page was asked "
                + "(\(restarts - 1) restarts)", clock: clock)
            return
          }
          // The token is no longer accepted: read the window again from its start.
          window.paginationToken = nil
          window.pages = 0
          feed.window = window
          try store.saveNotificationFeed(feed, now: now().millisecondsSince1970)
          summary.windowRestarts += 1
          continue
        }
        if error.errorCode == .startDateTooFarInPast {
          // Apple keeps less than the configured reach (or the clocks disagree by more than a
          // minute): what it no longer has cannot be read, so everyone who may have changed is
          // asked, and the window starts a day later.
          if window.pages == 0 && window.paginationToken == nil {
            summary.warnings.append(
              "Apple refused the \(name) notification window starting "
                + "\(Timestamp(millisecondsSince1970: window.startMilliseconds).iso8601) as too far "
                + "back: every \(name) customer with an entitled or time-bounded state is asked "
                + "again")
            try enqueueWholeEnvironment(name, clock: clock)
          }
          window.startMilliseconds += Timestamp.millisecondsPerDay
          window.paginationToken = nil
          window.pages = 0
          feed.window = window.startMilliseconds < window.endMilliseconds ? window : nil
          if feed.window == nil { feed.pagedThroughMilliseconds = window.endMilliseconds }
          try store.saveNotificationFeed(feed, now: now().millisecondsSince1970)
          continue
        }
        try unreadable(name, because: error.description, clock: clock)
        return
      }
      summary.notificationPages += 1
      observer?.counted(Self.name, "notification pages", by: 1)
      try store.writeTransaction {
        for item in page.items { try take(item, environment: name) }
        if page.hasMore, let token = page.paginationToken {
          window.paginationToken = token
          window.pages += 1
          feed.window = window
        } else {
          feed.pagedThroughMilliseconds = window.endMilliseconds
          feed.window = nil
        }
        try store.saveNotificationFeed(feed, now: now().millisecondsSince1970)
      }
    }
  }

  /// One notification: its customer is due unless the stored data is newer; a notification
  /// never delivered is recorded.
  private func take(_ item: NotificationHistoryItem, environment: String) throws {
    summary.notificationsRead += 1
    let payload = item.notification.payload
    let transaction = payload.data?.transaction?.payload
    let renewal = payload.data?.renewalInfo?.payload
    let ids = [
      transaction?.originalTransactionId, transaction?.transactionId,
      renewal?.originalTransactionId,
    ].compactMap { $0 }
    let customerId = try store.customer(
      appTransactionId: transaction?.appTransactionId ?? renewal?.appTransactionId,
      orOwningAnyOf: ids)
    let kind = [payload.notificationType?.rawValue, payload.subtype?.rawValue].compactMap { $0 }
      .joined(separator: "/")
    if !item.sendAttempts.isEmpty,
      !item.sendAttempts.contains(where: { $0.sendAttemptResult == .success })
    {
      let attempts = item.sendAttempts.compactMap(\.attemptDate).sorted()
      try store.storeLostNotification(
        LostNotificationRow(
          uuid: payload.notificationUUID ?? item.notification.jws.suffix(32).description,
          environment: environment, type: payload.notificationType?.rawValue ?? "unknown",
          subtype: payload.subtype?.rawValue,
          signedMilliseconds: payload.signedDate?.millisecondsSince1970,
          originalTransactionId: transaction?.originalTransactionId
            ?? renewal?.originalTransactionId,
          transactionId: transaction?.transactionId, customerId: customerId,
          firstAttemptMilliseconds: attempts.first?.millisecondsSince1970,
          lastAttemptMilliseconds: attempts.last?.millisecondsSince1970,
          lastResult: item.sendAttempts.last?.sendAttemptResult?.rawValue,
          signedPayload: item.notification.jws),
        foundAt: now().millisecondsSince1970)
      summary.lostNotificationsFound += 1
    }
    guard let customerId, let customer = try store.customer(id: customerId) else {
      summary.notificationsOutsideStore += 1
      return
    }
    // An incomplete customer is the backfill's: it will fetch everything anew.
    guard customer.isHistoryComplete, customer.areStatusesComplete else { return }
    let fetched = try store.statusesFetched(customerId: customerId)
    if let fetched, let signed = payload.signedDate?.millisecondsSince1970,
      signed < fetched - options.fetchedDataToleranceMilliseconds
    {
      summary.notificationsAlreadyKnown += 1
      return
    }
    let date = payload.signedDate.map { String($0.iso8601.prefix(10)) } ?? "an unknown date"
    try store.enqueueRefresh(
      RefreshQueueRow(
        customerId: customerId, reason: .notification,
        detail: "a \(kind.isEmpty ? "notification" : kind) notification of \(date) says it "
          + "changed after its data was fetched"
          + (fetched.map { " on \(Timestamp(millisecondsSince1970: $0).iso8601.prefix(10))" } ?? ""),
        dataMilliseconds: fetched),
      now: now().millisecondsSince1970)
  }

  /// The window could not be read to its end: which customers changed is unknown, so every
  /// customer that may have changed unseen is due (and, if the budget does not reach them,
  /// compared as stale rather than as if nothing had happened). The window is read again from
  /// where it stopped on the next run.
  private func unreadable(_ environment: String, because reason: String, clock: Timestamp)
    throws
  {
    summary.warnings.append(
      "the \(environment) notification history could not be read to the end (\(reason)): every "
        + "\(environment) customer with an entitled or time-bounded state is asked again, and "
        + "the window is read again from where it stopped on the next run")
    try enqueueWholeEnvironment(
      environment, clock: clock,
      detail: "the notification history that would say whether it changed could not be read")
  }

  /// Makes every customer of an environment with an entitled or time-bounded state due: the
  /// notifications that would say which of them changed are not available.
  private func enqueueWholeEnvironment(
    _ environment: String, clock: Timestamp, detail: String? = nil
  ) throws {
    try store.writeTransaction {
      for (customerId, fetched) in try store.customersWithEntitledOrTimeBoundedData(
        environment: environment)
      {
        try store.enqueueRefresh(
          RefreshQueueRow(
            customerId: customerId, reason: .windowLost,
            detail: detail
              ?? ("its data of "
                + (fetched.map { String(Timestamp(millisecondsSince1970: $0).iso8601.prefix(10)) }
                  ?? "an unrecorded date")
                + " is older than the notification history Apple keeps"),
            dataMilliseconds: fetched),
          now: now().millisecondsSince1970)
      }
    }
  }
}
